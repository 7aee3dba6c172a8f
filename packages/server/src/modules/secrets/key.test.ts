import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../config.js';
import { secrets } from '../../db/schema.js';
import { startTestServer } from '../../test/harness.js';
import { call, tenancy } from '../../test/fixtures.js';
import { decodeKey, KEY_FILE, loadSecretsKey, seal, unseal } from './key.js';

const dirs: string[] = [];
const freshDir = () => {
  const d = mkdtempSync(join(tmpdir(), 'orrery-secrets-key-'));
  dirs.push(d);
  return d;
};
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

describe('the key that seals secret values', () => {
  it('is generated once into secrets.key with mode 0600 and reused', () => {
    const dir = freshDir();
    const first = loadSecretsKey({ dataDir: dir });
    const file = join(dir, KEY_FILE);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const text = readFileSync(file, 'utf8');
    const again = loadSecretsKey({ dataDir: dir });
    expect(again.equals(first)).toBe(true);
    expect(readFileSync(file, 'utf8')).toBe(text);
  });

  it('refuses a damaged key file instead of replacing it', () => {
    const dir = freshDir();
    writeFileSync(join(dir, KEY_FILE), 'short\n');
    expect(() => loadSecretsKey({ dataDir: dir })).toThrow(/ORRERY_SECRETS_KEY/);
    expect(readFileSync(join(dir, KEY_FILE), 'utf8')).toBe('short\n');
  });

  it('accepts ORRERY_SECRETS_KEY as hex or base64 and writes no file then', () => {
    const raw = randomBytes(32);
    const dir = freshDir();
    expect(loadSecretsKey({ configured: raw.toString('hex'), dataDir: dir }).equals(raw)).toBe(
      true,
    );
    expect(loadSecretsKey({ configured: raw.toString('base64'), dataDir: dir }).equals(raw)).toBe(
      true,
    );
    expect(existsSync(join(dir, KEY_FILE))).toBe(false);
    expect(decodeKey('00')).toBeNull();
  });

  it('stops the start on a bad ORRERY_SECRETS_KEY, naming the variable', () => {
    expect(() => loadConfig({ ORRERY_SECRETS_KEY: 'not-a-key' })).toThrow(ConfigError);
    expect(() => loadConfig({ ORRERY_SECRETS_KEY: 'not-a-key' })).toThrow(
      /ORRERY_SECRETS_KEY: must be 64 hex characters or base64 of 32 bytes/,
    );
  });

  it('binds a sealed value to its secret: another key or another row cannot open it', () => {
    const key = randomBytes(32);
    const sealed = seal(key, Buffer.from('v'), 'secret://c/o/p/a');
    expect(unseal(key, sealed, 'secret://c/o/p/a').toString()).toBe('v');
    expect(() => unseal(key, sealed, 'secret://c/o/p/b')).toThrow();
    expect(() => unseal(randomBytes(32), sealed, 'secret://c/o/p/a')).toThrow();
  });
});

describe('servers and the secrets key', () => {
  const sealedOf = async (s: Awaited<ReturnType<typeof startTestServer>>, key: string) => {
    const [row] = await s.ctx.db.select().from(secrets).where(eq(secrets.key, key));
    return row.sealed;
  };
  const create = async (s: Awaited<ReturnType<typeof startTestServer>>) => {
    const { owner } = await tenancy(s);
    const r = await call(s, 'POST', '/api/v1/secrets', owner, {
      key: 'token',
      value: Buffer.from('plain').toString('base64'),
      org_name: 'acme',
      project_name: 'vision',
    });
    expect(r.status).toBe(201);
  };

  it('seals with the key file of the data directory and keeps it across restarts', async () => {
    const dir = freshDir();
    const s = await startTestServer({ ORRERY_DATA_DIR: dir });
    try {
      await create(s);
      const key = decodeKey(readFileSync(join(dir, KEY_FILE), 'utf8'))!;
      expect(statSync(join(dir, KEY_FILE)).mode & 0o777).toBe(0o600);
      const sealed = await sealedOf(s, 'token');
      expect(unseal(key, sealed, 'secret://default/acme/vision/token').toString()).toBe('plain');
    } finally {
      await s.stop();
    }
    const before = readFileSync(join(dir, KEY_FILE), 'utf8');
    const again = await startTestServer({ ORRERY_DATA_DIR: dir });
    await again.stop();
    expect(readFileSync(join(dir, KEY_FILE), 'utf8')).toBe(before);
  });

  it('honours ORRERY_SECRETS_KEY', async () => {
    const dir = freshDir();
    const raw = randomBytes(32);
    const s = await startTestServer({
      ORRERY_DATA_DIR: dir,
      ORRERY_SECRETS_KEY: raw.toString('hex'),
    });
    try {
      await create(s);
      const sealed = await sealedOf(s, 'token');
      expect(unseal(raw, sealed, 'secret://default/acme/vision/token').toString()).toBe('plain');
      expect(existsSync(join(dir, KEY_FILE))).toBe(false);
    } finally {
      await s.stop();
    }
  });
});
