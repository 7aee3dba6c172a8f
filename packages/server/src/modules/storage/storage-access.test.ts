import { beforeAll, describe, expect, it } from 'vitest';
import { FileStatusList } from '@orrery/contract';
import { type TestServer, type TestUser } from '../../test/harness.js';
import { call, tenantServer } from '../../test/fixtures.js';

describe('storage permissions', () => {
  let s: TestServer;
  let owner: TestUser;
  let reader: TestUser;
  let sharee: TestUser;
  let outsider: TestUser;
  const st = (who: TestUser | null, method: string, path: string, query: string, body?: string) =>
    s.app.inject({
      method: method as 'GET',
      url: `/api/v1/storage/acme/vision/${path}?${query}`,
      headers: {
        ...(who ? who.headers : {}),
        ...(body !== undefined ? { 'content-type': 'application/octet-stream' } : {}),
      },
      ...(body !== undefined ? { payload: body } : {}),
    });
  const share = async (who: TestUser, uri: string, action: string) =>
    expect(
      (await call(s, 'POST', `/api/v1/users/${who.username}/permissions`, owner, [{ uri, action }]))
        .status,
    ).toBeLessThan(300);
  const names = (body: string) =>
    FileStatusList.parse(JSON.parse(body))
      .FileStatuses.FileStatus.map((f) => `${f.path}:${f.permission}`)
      .sort();

  tenantServer((x) => ({ s, owner } = x));
  beforeAll(async () => {
    reader = await s.user();
    sharee = await s.user();
    outsider = await s.user();
    await call(s, 'POST', '/api/v1/orgs', outsider, { name: 'elsewhere' });
    for (const p of ['shared/in.txt', 'private/p.txt', 'w/x.txt', 'top.txt']) {
      expect((await st(owner, 'PUT', p, 'op=CREATE', p)).statusCode).toBe(201);
    }
    await share(reader, 'storage://default/acme/vision', 'read');
    await share(reader, 'storage://default/acme/vision/w', 'write');
    await share(sharee, 'storage://default/acme/vision/shared', 'read');
  });

  it('lets a reader read but not write (403)', async () => {
    expect((await st(reader, 'GET', 'top.txt', 'op=OPEN')).body).toBe('top.txt');
    for (const [method, path, query] of [
      ['PUT', 'new.txt', 'op=CREATE'],
      ['PUT', 'newdir', 'op=MKDIRS'],
      ['PATCH', 'top.txt', 'op=WRITE'],
      ['DELETE', 'top.txt', 'op=DELETE'],
      ['POST', 'top.txt', 'op=RENAME&destination=moved.txt'],
    ]) {
      const r = await st(reader, method, path, query, 'x');
      expect(r.statusCode, `${method} ${query}`).toBe(403);
      expect(r.json().error).toBe('forbidden');
    }
    // Renaming into a place the caller may not write is refused even from one it may.
    const r = await st(reader, 'POST', 'w/x.txt', 'op=RENAME&destination=/acme/vision/stolen.txt');
    expect(r.statusCode).toBe(403);
  });

  it('shows a shared child with its own, stronger permission', async () => {
    const r = await st(reader, 'GET', '', 'op=LISTSTATUS');
    expect(names(r.body)).toEqual(['private:read', 'shared:read', 'top.txt:read', 'w:write']);
    expect((await st(reader, 'PUT', 'w/y.txt', 'op=CREATE', 'y')).statusCode).toBe(201);
  });

  it('lists only the shared child to a user shared a sub-path', async () => {
    const root = await st(sharee, 'GET', '', 'op=LISTSTATUS');
    expect(root.statusCode).toBe(200);
    expect(names(root.body)).toEqual(['shared:read']);
    const nd = await s.app.inject({
      method: 'GET',
      url: '/api/v1/storage/acme/vision?op=LISTSTATUS',
      headers: { ...sharee.headers, accept: 'application/x-ndjson' },
    });
    expect(nd.body.trim().split('\n')).toHaveLength(1);
    expect((await st(sharee, 'GET', '', 'op=GETFILESTATUS')).statusCode).toBe(200);
    expect((await st(sharee, 'GET', 'shared/in.txt', 'op=OPEN')).body).toBe('shared/in.txt');
    expect((await st(sharee, 'GET', 'shared', 'op=LISTSTATUS')).statusCode).toBe(200);
    expect((await st(sharee, 'GET', 'private/p.txt', 'op=OPEN')).statusCode).toBe(404);
    expect((await st(sharee, 'GET', 'private', 'op=LISTSTATUS')).statusCode).toBe(404);
    expect((await st(sharee, 'PUT', 'shared/new', 'op=CREATE', 'n')).statusCode).toBe(403);
  });

  it('answers 404 to another organization and 401 to anonymous callers', async () => {
    for (const [method, query] of [
      ['GET', 'op=LISTSTATUS'],
      ['GET', 'op=OPEN'],
      ['PUT', 'op=CREATE'],
      ['DELETE', 'op=DELETE'],
    ]) {
      const body = method === 'PUT' ? 'x' : undefined;
      expect((await st(outsider, method, 'top.txt', query, body)).statusCode).toBe(404);
      const anon = await st(null, method, 'top.txt', query, body);
      expect(anon.statusCode).toBe(401);
      expect(anon.json().error).toBe('unauthorized');
    }
    const missing = await s.app.inject({
      method: 'GET',
      url: '/api/v1/storage/acme/nope/x?op=OPEN',
      headers: owner.headers,
    });
    expect(missing.statusCode).toBe(404);
  });
});
