import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { type TestServer, type TestUser } from '../../test/harness.js';
import { call, projectMember, tenantServer } from '../../test/fixtures.js';
import { secrets } from '../../db/schema.js';

const Q = 'org_name=acme&project_name=vision';
const b64 = (text: string) => Buffer.from(text).toString('base64');

describe('secrets', () => {
  let s: TestServer;
  let owner: TestUser;
  const create = (who: TestUser | null, key: string, value: string, extra = {}) =>
    call(s, 'POST', '/api/v1/secrets', who, {
      key,
      value,
      org_name: 'acme',
      project_name: 'vision',
      ...extra,
    });

  tenantServer((x) => ({ s, owner } = x));

  it('creates, lists without values, reads the same bytes and deletes', async () => {
    const bytes = Buffer.concat([Buffer.from([0, 255, 10, 13]), randomBytes(300)]);
    const created = await create(owner, 'db.password_1', bytes.toString('base64'));
    expect(created.status).toBe(201);
    const entry = {
      key: 'db.password_1',
      org_name: 'acme',
      project_name: 'vision',
      owner: owner.username,
    };
    expect(created.body).toEqual(entry);

    const list = await call(s, 'GET', `/api/v1/secrets?${Q}`, owner);
    expect(list.status).toBe(200);
    expect(list.body).toEqual([entry]);

    const one = await call(s, 'GET', `/api/v1/secrets/db.password_1?${Q}`, owner);
    expect(one.status).toBe(200);
    expect(one.body).toEqual({ ...entry, value: bytes.toString('base64') });
    expect(Buffer.from(one.body.value, 'base64').equals(bytes)).toBe(true);

    const explicit = await call(s, 'GET', `/api/v1/secrets?${Q}&cluster_name=default`, owner);
    expect(explicit.body).toEqual([entry]);

    expect((await call(s, 'DELETE', `/api/v1/secrets/db.password_1?${Q}`, owner)).status).toBe(204);
    const gone = await call(s, 'GET', `/api/v1/secrets/db.password_1?${Q}`, owner);
    expect(gone.status).toBe(404);
    expect(gone.body.message).toBe('Secret db.password_1 not found');
    expect((await call(s, 'DELETE', `/api/v1/secrets/db.password_1?${Q}`, owner)).status).toBe(404);
    expect((await call(s, 'GET', `/api/v1/secrets?${Q}`, owner)).body).toEqual([]);
  });

  it('stores the value sealed, never in clear', async () => {
    const plain = 'hunter2-very-recognisable-plaintext';
    expect((await create(owner, 'sealed', b64(plain))).status).toBe(201);
    const [row] = await s.ctx.db.select().from(secrets).where(eq(secrets.key, 'sealed'));
    expect(row.sealed).not.toContain(plain);
    expect(row.sealed).not.toContain(b64(plain));
    expect(Buffer.from(row.sealed, 'base64').toString('latin1')).not.toContain(plain);
  });

  it('accepts 1 MiB of bytes and refuses one byte more on the value field', async () => {
    const mib = randomBytes(1024 * 1024);
    expect((await create(owner, 'big', mib.toString('base64'))).status).toBe(201);
    const back = await call(s, 'GET', `/api/v1/secrets/big?${Q}`, owner);
    expect(Buffer.from(back.body.value, 'base64').equals(mib)).toBe(true);
    const over = await create(owner, 'bigger', randomBytes(1024 * 1024 + 1).toString('base64'));
    expect(over.status).toBe(400);
    expect(over.body.errors[0]).toEqual({
      path: 'value',
      message: 'Secret value must be at most 1 MiB',
    });
  });

  it('refuses a value that is not base64 without echoing it', async () => {
    const r = await create(owner, 'bad-value', 'not base64 at all!');
    expect(r.status).toBe(400);
    expect(r.body.errors[0]).toEqual({
      path: 'value',
      message: 'Secret value must be base64-encoded',
    });
    expect(JSON.stringify(r.body)).not.toContain('not base64 at all');
  });

  it.each([
    ['', 'Secret key is required'],
    ['has space', 'Secret key may contain only letters, digits, ".", "_" and "-"'],
    ['slash/key', 'Secret key may contain only letters, digits, ".", "_" and "-"'],
    ['.hidden', 'Secret key must not start with "."'],
    ['..parent', 'Secret key must not start with "."'],
    ['k'.repeat(254), 'Secret key must be at most 253 characters'],
    ['---neuro---', 'Secret key ---neuro--- is reserved'],
  ])('refuses the key %j with "%s"', async (key, message) => {
    const r = await create(owner, key, b64('x'));
    expect(r.status).toBe(400);
    expect(r.body.errors[0]).toEqual({ path: 'key', message });
  });

  it('accepts a key of 253 characters', async () => {
    expect((await create(owner, 'k'.repeat(253), b64('x'))).status).toBe(201);
  });

  it('refuses a duplicate key with 409 and keeps the first value', async () => {
    expect((await create(owner, 'dup', b64('first'))).status).toBe(201);
    const again = await create(owner, 'dup', b64('second'));
    expect(again.status).toBe(409);
    expect(again.body.errors[0]).toEqual({ path: 'key', message: 'Secret dup already exists' });
    const kept = await call(s, 'GET', `/api/v1/secrets/dup?${Q}`, owner);
    expect(Buffer.from(kept.body.value, 'base64').toString()).toBe('first');
  });

  it('lets readers and writers read, and only managers create and delete', async () => {
    expect((await create(owner, 'shared', b64('v'))).status).toBe(201);
    for (const role of ['reader', 'writer'] as const) {
      const u = await projectMember(s, role);
      const list = await call(s, 'GET', `/api/v1/secrets?${Q}`, u);
      expect(list.status, role).toBe(200);
      expect(
        list.body.map((x: { key: string }) => x.key),
        role,
      ).toContain('shared');
      expect((await call(s, 'GET', `/api/v1/secrets/shared?${Q}`, u)).status, role).toBe(200);
      const denied = await create(u, `by-${role}`, b64('v'));
      expect(denied.status, role).toBe(403);
      expect(denied.body.error, role).toBe('forbidden');
      expect((await call(s, 'DELETE', `/api/v1/secrets/shared?${Q}`, u)).status, role).toBe(403);
    }
    const manager = await projectMember(s, 'manager');
    expect((await create(manager, 'by-manager', b64('v'))).status).toBe(201);
    expect((await call(s, 'DELETE', `/api/v1/secrets/shared?${Q}`, manager)).status).toBe(204);
  });

  it('answers 404 to another organization and 401 to anonymous callers', async () => {
    expect((await create(owner, 'private', b64('v'))).status).toBe(201);
    const outsider = await s.user();
    await call(s, 'POST', '/api/v1/orgs', outsider, { name: 'elsewhere' });
    for (const who of [outsider, null]) {
      const status = who ? 404 : 401;
      expect((await call(s, 'GET', `/api/v1/secrets?${Q}`, who)).status).toBe(status);
      expect((await call(s, 'GET', `/api/v1/secrets/private?${Q}`, who)).status).toBe(status);
      expect((await call(s, 'DELETE', `/api/v1/secrets/private?${Q}`, who)).status).toBe(status);
      expect((await create(who, 'intruder', b64('v'))).status).toBe(status);
    }
    // A missing or slashed name must not shift the permission URI onto another project: the
    // missing one is refused by validation before any access check reads the query.
    const missing = await call(s, 'GET', `/api/v1/secrets?project_name=vision`, owner);
    expect(missing.status).toBe(400);
    expect(missing.body.errors[0].path).toBe('org_name');
    const slashed = 'org_name=acme/vision&project_name=private';
    expect((await call(s, 'GET', `/api/v1/secrets?${slashed}`, owner)).status).toBe(404);
  });

  it('keeps secrets of another cluster apart and refuses a project that does not exist', async () => {
    const admin = await s.user({ systemRole: 'admin' });
    const r = await create(admin, 'x', b64('v'), { cluster_name: 'other' });
    expect(r.status).toBe(404);
    expect(r.body.message).toBe('Project not found');
    const other = await call(s, 'GET', `/api/v1/secrets?${Q}&cluster_name=other`, admin);
    expect(other.body).toEqual([]);
  });
});
