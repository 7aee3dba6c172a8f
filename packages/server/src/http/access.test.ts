import { beforeAll, describe, expect, it } from 'vitest';
import { type TestServer, type TestUser } from '../test/harness.js';
import { call, tenantServer } from '../test/fixtures.js';
import { routeAccess } from './access.js';

/** Fills a route's parameters with the names of the tenant made below. */
const fill = (url: string, username: string) =>
  url
    .replace(':cluster', 'default')
    .replace(':org', 'acme')
    .replace(':project', 'vision')
    .replace(':name', url.startsWith('/api/v1/users') ? username : 'acme');

describe('every API route checks the permission engine', () => {
  let s: TestServer;
  let owner: TestUser;
  let outsider: TestUser;
  let reader: TestUser;
  tenantServer((x) => ({ s, owner } = x));
  beforeAll(async () => {
    outsider = await s.user();
    await call(s, 'POST', '/api/v1/orgs', outsider, { name: 'elsewhere' });
    reader = await s.user();
    await call(s, 'POST', `/api/v1/users/${reader.username}/permissions`, owner, [
      { uri: 'project://default/acme/vision', action: 'read' },
    ]);
  });

  it('declares access on every route', () => {
    expect(routeAccess.size).toBeGreaterThanOrEqual(12);
  });

  it('rejects an anonymous caller with 401 on every non-public route', async () => {
    for (const [key, access] of routeAccess) {
      if (access === 'public') continue;
      const [method, url] = key.split(' ');
      const res = await s.app.inject({
        method: method as 'GET',
        url: fill(url, owner.username),
        payload: method === 'GET' || method === 'DELETE' ? undefined : {},
      });
      expect(res.statusCode, key).toBe(401);
      expect(res.json().error, key).toBe('unauthorized');
    }
  });

  it('answers 404 to a caller from another organization on every resource route', async () => {
    // Input is validated before the access check reads it, so a request the schema refuses is a
    // 400; the outsider then learns only what the schema says, the same for an organization that
    // does not exist: nothing about the tenant.
    const as = (key: string, org: string) => {
      const [method, url] = key.split(' ');
      const q = `org_name=${org}&project_name=vision&cluster_name=default`;
      return s.app.inject({
        method: method as 'GET',
        url: `${fill(url, owner.username).replaceAll('acme', org)}?${q}`,
        headers: outsider.headers,
        payload: method === 'GET' || method === 'DELETE' ? undefined : {},
      });
    };
    let notFound = 0;
    for (const [key, access] of routeAccess) {
      if (typeof access !== 'object') continue;
      const [real, ghost] = [await as(key, 'acme'), await as(key, 'no-such-org')];
      expect([400, 404], key).toContain(real.statusCode);
      expect(real.statusCode, key).toBe(ghost.statusCode);
      expect(real.body.replaceAll('acme', 'no-such-org'), key).toBe(ghost.body);
      if (real.statusCode === 404) notFound += 1;
    }
    expect(notFound).toBeGreaterThanOrEqual(10);
  });

  it('answers 403 to a caller whose grant is too weak', async () => {
    const r = await call(s, 'POST', `/api/v1/users/${outsider.username}/permissions`, reader, [
      { uri: 'project://default/acme/vision', action: 'read' },
    ]);
    expect(r.status).toBe(403);
    expect(r.body.error).toBe('forbidden');
  });
});
