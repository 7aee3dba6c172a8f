import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The key that seals secret values (AES-256-GCM). Configured with ORRERY_SECRETS_KEY, or made once
 * into `<dataDir>/secrets.key` (mode 0600) and reused: losing it makes every stored value
 * unreadable, so it is never regenerated over an existing file. Several replicas must share one
 * configured key (docs/operations.md).
 */
export const KEY_FILE = 'secrets.key';
const KEY_BYTES = 32;
const IV_BYTES = 12;
const TAG_BYTES = 16;

/** 64 hex characters or base64 of 32 bytes, as ORRERY_SECRETS_KEY and the key file hold it. */
export function decodeKey(text: string): Buffer | null {
  const t = text.trim();
  const raw = /^[0-9a-fA-F]{64}$/.test(t) ? Buffer.from(t, 'hex') : Buffer.from(t, 'base64');
  return raw.length === KEY_BYTES ? raw : null;
}

export function loadSecretsKey(opts: { configured?: string; dataDir: string }): Buffer {
  if (opts.configured) {
    const key = decodeKey(opts.configured);
    if (!key)
      throw new Error('ORRERY_SECRETS_KEY: must be 64 hex characters or base64 of 32 bytes');
    return key;
  }
  const file = join(opts.dataDir, KEY_FILE);
  mkdirSync(opts.dataDir, { recursive: true });
  try {
    // `wx`: another process starting on the same directory at the same time keeps its own key.
    writeFileSync(file, `${randomBytes(KEY_BYTES).toString('hex')}\n`, { flag: 'wx', mode: 0o600 });
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
  }
  const key = decodeKey(readFileSync(file, 'utf8'));
  if (!key) {
    throw new Error(
      `${file} does not hold a 32-byte key; restore it or set ORRERY_SECRETS_KEY (values sealed with another key cannot be read)`,
    );
  }
  return key;
}

/**
 * Seals a value as base64(iv ‖ tag ‖ ciphertext). `aad` binds the value to its row (cluster, org,
 * project, key), so a sealed value copied onto another secret fails to open.
 */
export function seal(key: Buffer, plain: Buffer, aad: string): string {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(Buffer.from(aad, 'utf8'));
  const body = Buffer.concat([cipher.update(plain), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64');
}

export function unseal(key: Buffer, sealed: string, aad: string): Buffer {
  const raw = Buffer.from(sealed, 'base64');
  const decipher = createDecipheriv('aes-256-gcm', key, raw.subarray(0, IV_BYTES));
  decipher.setAAD(Buffer.from(aad, 'utf8'));
  decipher.setAuthTag(raw.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
  return Buffer.concat([decipher.update(raw.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]);
}
