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

  describe('the admin API (apolo admin add-org)', () => {
    const ADD = '/apis/admin/v1/orgs';

    it('creates it as POST /api/v1/orgs does: the caller its admin, linked to the local cluster', async () => {
      const u = await s.user();
      const created = await call(s, 'POST', `${ADD}?skip_auto_add_to_clusters=false`, u, {
        name: 'cli-lab',
      });
      expect(created.status).toBe(201);
      expect(created.body).toEqual({
        name: 'cli-lab',
        balance: { credits: null, spent_credits: '0' },
        user_default_credits: null,
        notification_intervals: null,
        users_count: 1,
      });
      expect((await call(s, 'GET', '/api/v1/orgs/cli-lab', u)).body.role).toBe('admin');
      const link = await call(s, 'GET', '/apis/admin/v1/clusters/default/orgs/cli-lab', u);
      expect(link.status).toBe(200);
      expect((await call(s, 'POST', ADD, u, { name: 'cli-lab' })).status).toBe(409);
    });

    it('leaves the organization off the local cluster with skip_auto_add_to_clusters', async () => {
      const u = await s.user();
      const created = await call(s, 'POST', `${ADD}?skip_auto_add_to_clusters=true`, u, {
        name: 'cli-alone',
      });
      expect(created.status).toBe(201);
      const link = await call(s, 'GET', '/apis/admin/v1/clusters/default/orgs/cli-alone', u);
      expect(link.status).toBe(404);
      expect(link.body.message).toBe('Organization cli-alone is not linked to default cluster');
    });

    it('refuses what it cannot keep or read with a 400 naming the field, and strangers', async () => {
      const u = await s.user();
      const credits = await call(s, 'POST', ADD, u, {
        name: 'cli-credits',
        user_default_credits: '100',
      });
      expect(credits.status).toBe(400);
      expect(credits.body.errors[0]).toEqual({
        path: 'user_default_credits',
        message:
          "Default credits for new members are not kept on this installation: set a member's credits with set-user-credits",
      });
      const flag = await call(s, 'POST', `${ADD}?skip_auto_add_to_clusters=yes`, u, {
        name: 'cli-flag',
      });
      expect(flag.status).toBe(400);
      expect(flag.body.message).toBe('skip_auto_add_to_clusters must be true or false');
      const name = await call(s, 'POST', ADD, u, { name: 'Bad Name' });
      expect(name.body.errors[0]).toEqual({
        path: 'name',
        message: 'Organization name is invalid',
      });
      expect((await call(s, 'GET', '/api/v1/orgs/cli-credits/exists', u)).body.exists).toBe(false);
      const unverified = await call(s, 'POST', ADD, await s.user({ verified: false }), {
        name: 'cli-unverified',
      });
      expect(unverified.status).toBe(403);
      expect((await call(s, 'POST', ADD, null, { name: 'cli-anon' })).status).toBe(401);
    });
  });
});
