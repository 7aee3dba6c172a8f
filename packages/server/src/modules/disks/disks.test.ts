import { existsSync, statSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { type TestServer, type TestUser } from '../../test/harness.js';
import { call, projectMember, tenantServer } from '../../test/fixtures.js';

import { diskVolumePath } from './service.js';

const Q = 'org_name=acme&project_name=vision';
const GB = 10 ** 9;

describe('disks', () => {
  let s: TestServer;
  let owner: TestUser;
  const create = (who: TestUser | null, body: Record<string, unknown>) =>
    call(s, 'POST', '/api/v1/disk', who, { org_name: 'acme', project_name: 'vision', ...body });

  tenantServer((x) => ({ s, owner } = x));

  it('creates a Ready disk with its directory, as the CLI sends it', async () => {
    const r = await create(owner, { storage: 10 * GB, life_span: 86400.0, name: 'data' });
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({
      storage: 10 * GB,
      used_bytes: 0,
      status: 'Ready',
      owner: owner.username,
      name: 'data',
      org_name: 'acme',
      project_name: 'vision',
      cluster_name: 'default',
      last_usage: null,
      life_span: 86400,
    });
    expect(r.body.id).toMatch(/^disk-[0-9a-f-]{36}$/);
    expect(r.body.uri).toBe(`disk://default/acme/vision/${r.body.id}`);
    const dir = await diskVolumePath(s.ctx, r.body.id);
    expect(dir).toBe(`${s.config.dataDir}/disks/default/acme/vision/${r.body.id}`);
    expect(statSync(dir).isDirectory()).toBe(true);
  });

  it('lists the project’s disks and reads one by id and by name', async () => {
    const made = await create(owner, { storage: GB, name: 'by-name' });
    const unnamed = await create(owner, { storage: GB, name: null, life_span: null });
    expect(unnamed.body.name).toBeNull();
    const list = await call(s, 'GET', `/api/v1/disk?${Q}`, owner);
    expect(list.status).toBe(200);
    const ids = list.body.map((d: { id: string }) => d.id);
    expect(ids).toEqual(expect.arrayContaining([made.body.id, unnamed.body.id]));
    const byId = await call(s, 'GET', `/api/v1/disk/${made.body.id}?${Q}`, owner);
    expect(byId.body).toEqual(made.body);
    const byName = await call(s, 'GET', `/api/v1/disk/by-name?${Q}&cluster_name=default`, owner);
    expect(byName.body.id).toBe(made.body.id);
    expect((await call(s, 'GET', `/api/v1/disk/nope?${Q}`, owner)).status).toBe(404);
    const mine = await call(s, 'GET', `/api/v1/disk?${Q}&owner=${owner.username}`, owner);
    expect(mine.body.length).toBe(list.body.length);
    expect((await call(s, 'GET', `/api/v1/disk?${Q}&owner=someone-else`, owner)).body).toEqual([]);
  });

  it('refuses a name already used in the project (409)', async () => {
    await create(owner, { storage: GB, name: 'twice' });
    const again = await create(owner, { storage: GB, name: 'twice' });
    expect(again.status).toBe(409);
    expect(again.body.message).toBe('Disk with name twice already exists');
    expect(again.body.errors[0].path).toBe('name');
  });

  it.each([
    [{ storage: 'ten' }, 'storage', 'Storage must be a number'],
    [{ storage: -5 }, 'storage', 'Storage must be positive'],
    [{ storage: 0 }, 'storage', 'Storage must be positive'],
    [{ storage: 1.5 }, 'storage', 'Storage must be a whole number of bytes'],
    [{ storage: GB, name: 'Has Space' }, 'name', 'Invalid name'],
    [{ storage: GB, name: '1abc' }, 'name', 'Invalid name'],
    [{ storage: GB, name: 'ab' }, 'name', 'Disk name must be 3 to 40 characters'],
    [{ storage: GB, name: 'a'.repeat(41) }, 'name', 'Disk name must be 3 to 40 characters'],
  ])('rejects %j with "%s: %s"', async (body, path, message) => {
    const r = await create(owner, body);
    expect(r.status).toBe(400);
    expect(r.body.errors[0]).toEqual({ path, message });
  });

  it('refuses more storage than a node’s disk', async () => {
    const r = await create(owner, { storage: 10 ** 15, name: 'huge' });
    expect(r.status).toBe(400);
    expect(r.body.errors[0].path).toBe('storage');
    expect(r.body.errors[0].message).toMatch(/^Storage must be at most \d+ bytes/);
  });

  it('deletes a disk with its directory', async () => {
    const r = await create(owner, { storage: GB, name: 'doomed' });
    const dir = await diskVolumePath(s.ctx, r.body.id);
    const del = await call(s, 'DELETE', `/api/v1/disk/doomed?${Q}`, owner);
    expect(del.status).toBe(204);
    expect(existsSync(dir)).toBe(false);
    expect((await call(s, 'GET', `/api/v1/disk/${r.body.id}?${Q}`, owner)).status).toBe(404);
  });

  it('lets readers read, writers create and delete their own, managers delete any', async () => {
    const reader = await projectMember(s, 'reader');
    const writer = await projectMember(s, 'writer');
    const manager = await projectMember(s, 'manager');
    const r = await create(reader, { storage: GB, name: 'by-reader' });
    expect(r.status).toBe(403);
    expect((await call(s, 'GET', `/api/v1/disk?${Q}`, reader)).status).toBe(200);
    const theirs = await create(writer, { storage: GB, name: 'by-writer' });
    expect(theirs.status).toBe(201);
    const other = await create(owner, { storage: GB, name: 'not-writers' });
    expect((await call(s, 'DELETE', `/api/v1/disk/not-writers?${Q}`, writer)).status).toBe(403);
    expect((await call(s, 'DELETE', `/api/v1/disk/by-writer?${Q}`, reader)).status).toBe(403);
    expect((await call(s, 'DELETE', `/api/v1/disk/by-writer?${Q}`, writer)).status).toBe(204);
    expect((await call(s, 'DELETE', `/api/v1/disk/${other.body.id}?${Q}`, manager)).status).toBe(
      204,
    );
  });

  it('keeps another organization’s disks out of reach (404) and anonymous callers out (401)', async () => {
    const d = await create(owner, { storage: GB, name: 'private' });
    const outsider = await s.user();
    await call(s, 'POST', '/api/v1/orgs', outsider, { name: 'elsewhere' });
    expect((await call(s, 'GET', `/api/v1/disk?${Q}`, outsider)).status).toBe(404);
    expect((await call(s, 'GET', `/api/v1/disk/${d.body.id}?${Q}`, outsider)).status).toBe(404);
    expect((await call(s, 'DELETE', `/api/v1/disk/private?${Q}`, outsider)).status).toBe(404);
    expect((await create(outsider, { storage: GB, name: 'intruder' })).status).toBe(404);
    expect((await call(s, 'GET', `/api/v1/disk?${Q}`, null)).status).toBe(401);
    expect((await create(null, { storage: GB })).status).toBe(401);
  });
});
