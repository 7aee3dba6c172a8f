import { describe, expect, it } from 'vitest';
import { engine, type TestServer, type TestUser } from '../test/harness.js';
import { call, joinOrg, projectMember, twoReplicas, tenantServer } from '../test/fixtures.js';

/**
 * Principals and grants are cached per user for an access epoch (auth/access-cache.ts). Each test
 * first makes the caller's access warm in the cache, then changes it, and expects the very next
 * request to see the change.
 */
const A = '/apis/admin/v1';
const PROJECT = `${A}/clusters/default/orgs/acme/projects/vision/users`;
const SECRETS = '/api/v1/secrets?org_name=acme&project_name=vision';
/** A member of organization acme (role user) with a role in its project vision. */
const projectPerson = async (s: TestServer, role: 'reader' | 'writer' | 'manager') =>
  joinOrg(s, await projectMember(s, role), 'user');
const secret = (key: string) => ({
  org_name: 'acme',
  project_name: 'vision',
  key,
  value: Buffer.from('v').toString('base64'),
});

describe('revoked access, on one server', () => {
  let s: TestServer;
  let owner: TestUser;
  tenantServer((x) => ({ s, owner } = x));

  it('refuses a member removed from an organization at the very next request', async () => {
    const u = await joinOrg(s, await s.user(), 'user');
    expect((await call(s, 'GET', `${A}/orgs/acme/users`, u)).status).toBe(200);
    expect((await call(s, 'GET', '/api/v1/config', u)).body.orgs).toEqual([
      { name: 'acme', role: 'user' },
    ]);
    const removed = await call(s, 'DELETE', `${A}/orgs/acme/users/${u.username}`, owner);
    expect(removed.status).toBe(204);
    expect((await call(s, 'GET', `${A}/orgs/acme/users`, u)).status).toBe(404);
    expect((await call(s, 'GET', '/api/v1/config', u)).body.orgs).toEqual([]);
  });

  it('takes manage actions from a manager lowered to reader at the next request', async () => {
    const u = await projectPerson(s, 'manager');
    expect((await call(s, 'POST', '/api/v1/secrets', u, secret('FIRST'))).status).toBe(201);
    const lowered = await call(s, 'PUT', `${PROJECT}/${u.username}`, owner, { role: 'reader' });
    expect(lowered.status).toBe(200);
    expect((await call(s, 'POST', '/api/v1/secrets', u, secret('SECOND'))).status).toBe(403);
    // Reading is what a reader keeps.
    expect((await call(s, 'GET', SECRETS, u)).status).toBe(200);
  });

  it('refuses a removed project member at the next request', async () => {
    const u = await projectPerson(s, 'writer');
    expect((await call(s, 'GET', SECRETS, u)).status).toBe(200);
    expect((await call(s, 'DELETE', `${PROJECT}/${u.username}`, owner)).status).toBe(204);
    expect((await call(s, 'GET', SECRETS, u)).status).toBe(404);
    expect((await call(s, 'GET', '/api/v1/config', u)).body.projects).toEqual([]);
  });

  it('refuses a revoked share at the next request', async () => {
    const friend = await s.user();
    const uri = 'project://default/acme/vision';
    const project = '/api/v1/clusters/default/orgs/acme/projects/vision';
    const shares = `/api/v1/users/${friend.username}/permissions`;
    expect((await call(s, 'GET', project, friend)).status).toBe(404);
    expect((await call(s, 'POST', shares, owner, [{ uri, action: 'read' }])).status).toBe(201);
    expect((await call(s, 'GET', project, friend)).status).toBe(200);
    const revoked = await call(s, 'DELETE', `${shares}?uri=${encodeURIComponent(uri)}`, owner);
    expect(revoked.status).toBe(204);
    expect((await call(s, 'GET', project, friend)).status).toBe(404);
  });

  it('stops a deleted user’s token at the next request', async () => {
    const admin = await s.user({ systemRole: 'admin' });
    const u = await joinOrg(s, await s.user(), 'user');
    expect((await call(s, 'GET', '/api/v1/jobs', u)).status).toBe(200);
    expect((await call(s, 'DELETE', `${A}/users/${u.username}`, admin)).status).toBe(204);
    expect((await call(s, 'GET', '/api/v1/jobs', u)).status).toBe(401);
    expect((await call(s, 'GET', '/api/v1/config', u)).body.authorized).toBe(false);
  });

  it('sees a change written straight to the database, not only through the API', async () => {
    // The epoch is bumped by database triggers, so no write path can forget to invalidate.
    const u = await s.user();
    expect((await call(s, 'GET', `${A}/orgs/acme/users`, u)).status).toBe(404);
    await joinOrg(s, u, 'user');
    expect((await call(s, 'GET', `${A}/orgs/acme/users`, u)).status).toBe(200);
  });
});

/**
 * Two servers on one PostgreSQL database, as two replicas behind a load balancer: a change made
 * through one is enforced by the other at its next request.
 */
describe.skipIf(engine !== 'postgres')('revoked access, on two replicas', () => {
  const r = twoReplicas();

  it('refuses on replica B a member removed through replica A', async () => {
    const u = await projectPerson(r.a, 'writer');
    expect((await call(r.b, 'GET', SECRETS, u)).status).toBe(200);
    expect((await call(r.a, 'DELETE', `${PROJECT}/${u.username}`, r.owner)).status).toBe(204);
    expect((await call(r.b, 'GET', SECRETS, u)).status).toBe(404);
  });

  it('takes manage actions on replica B from a role lowered through replica A', async () => {
    const u = await projectPerson(r.a, 'manager');
    expect((await call(r.b, 'POST', '/api/v1/secrets', u, secret('ON_B'))).status).toBe(201);
    const lowered = await call(r.a, 'PUT', `${PROJECT}/${u.username}`, r.owner, { role: 'reader' });
    expect(lowered.status).toBe(200);
    expect((await call(r.b, 'POST', '/api/v1/secrets', u, secret('ON_B_2'))).status).toBe(403);
  });
});

if (engine !== 'postgres') {
  describe('revoked access, on two replicas', () => {
    it.skip('needs PostgreSQL (TEST_DATABASE_URL): PGlite is one process, so one replica', () => {});
  });
}
