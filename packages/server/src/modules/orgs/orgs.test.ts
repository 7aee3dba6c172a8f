import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../test/harness.js';
import { call } from '../../test/fixtures.js';

describe('organizations', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer();
  });
  afterAll(() => s.stop());

  it('creates an organization with its creator as admin, linked to the local cluster', async () => {
    const u = await s.user();
    const created = await call(s, 'POST', '/api/v1/orgs', u, { name: 'north-lab' });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      name: 'north-lab',
      role: 'admin',
      balance: { credits: null },
      projects_count: 0,
    });
    const list = await call(s, 'GET', '/api/v1/orgs', u);
    expect(list.body).toEqual({ items: [created.body], total: 1, pages: 1 });
    const config = await call(s, 'GET', '/api/v1/config', u);
    expect(config.body.clusters.map((c: { name: string }) => c.name)).toEqual(['default']);
  });

  it.each([
    ['', 'Organization name is required'],
    ['Bad Name', 'Organization name is invalid'],
    ['a_b', 'Organization name is invalid'],
  ])('rejects the name %j with "%s" on the name field', async (name, message) => {
    const u = await s.user();
    const { status, body } = await call(s, 'POST', '/api/v1/orgs', u, { name });
    expect(status).toBe(400);
    expect(body.message).toBe(message);
    expect(body.errors[0]).toEqual({ path: 'name', message });
  });

  it('refuses a taken name with 409 and reports it through the exists check', async () => {
    const a = await s.user();
    const b = await s.user();
    expect((await call(s, 'POST', '/api/v1/orgs', a, { name: 'taken-org' })).status).toBe(201);
    const again = await call(s, 'POST', '/api/v1/orgs', b, { name: 'taken-org' });
    expect(again.status).toBe(409);
    expect(again.body.errors[0]).toEqual({
      path: 'name',
      message: 'Organization with such name already exits',
    });
    expect((await call(s, 'GET', '/api/v1/orgs/taken-org/exists', b)).body).toEqual({
      exists: true,
    });
    expect((await call(s, 'GET', '/api/v1/orgs/free-org/exists', b)).body).toEqual({
      exists: false,
    });
  });

  it('asks an unverified user to verify the e-mail first', async () => {
    const u = await s.user({ verified: false });
    const { status, body } = await call(s, 'POST', '/api/v1/orgs', u, { name: 'unverified-org' });
    expect(status).toBe(403);
    expect(body.message).toMatch(/Verify your e-mail/);
  });

  it('hides another organization (404) and needs a signed-in caller (401)', async () => {
    const a = await s.user();
    const b = await s.user();
    await call(s, 'POST', '/api/v1/orgs', a, { name: 'private-org' });
    expect((await call(s, 'GET', '/api/v1/orgs/private-org', a)).status).toBe(200);
    expect((await call(s, 'GET', '/api/v1/orgs/private-org', b)).status).toBe(404);
    expect((await call(s, 'GET', '/api/v1/orgs')).status).toBe(401);
    expect((await call(s, 'POST', '/api/v1/orgs', null, { name: 'x-org' })).status).toBe(401);
  });

  it('pages the list with page and size', async () => {
    const u = await s.user();
    for (const n of ['pg-a', 'pg-b', 'pg-c']) await call(s, 'POST', '/api/v1/orgs', u, { name: n });
    const p2 = await call(s, 'GET', '/api/v1/orgs?page=2&size=2', u);
    expect(p2.body.total).toBe(3);
    expect(p2.body.pages).toBe(2);
    expect(p2.body.items.map((o: { name: string }) => o.name)).toEqual(['pg-c']);
    expect((await call(s, 'GET', '/api/v1/orgs?size=0', u)).status).toBe(400);
  });
});
