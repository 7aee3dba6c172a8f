import { describe, expect, it } from 'vitest';
import { type TestServer, type TestUser } from '../../test/harness.js';
import { call, joinOrg, tenantServer } from '../../test/fixtures.js';

const A = '/apis/admin/v1';

describe('people of organizations, clusters and projects', () => {
  let s: TestServer;
  let owner: TestUser;
  tenantServer((x) => ({ s, owner } = x));

  it('lists organization users with their role, credits and e-mail', async () => {
    const u = await s.user({ name: 'Grace Brewster Hopper' });
    await call(s, 'POST', `${A}/orgs/acme/users`, owner, {
      user_name: u.username,
      role: 'user',
      balance: { credits: '12.5' },
    });
    const r = await call(s, 'GET', `${A}/orgs/acme/users?with_user_info=true`, owner);
    expect(r.body.find((x: { user_name: string }) => x.user_name === u.username)).toEqual({
      user_name: u.username,
      org_name: 'acme',
      role: 'user',
      balance: { credits: '12.5', spent_credits: '0' },
      user_info: {
        email: u.email,
        first_name: 'Grace',
        last_name: 'Brewster Hopper',
        created_at: expect.any(String),
      },
    });
    const plain = await call(s, 'GET', `${A}/orgs/acme/users`, owner);
    expect(plain.body[0].user_info).toBeUndefined();
  });

  it('edits role and credits, empty credits meaning unlimited', async () => {
    const u = await joinOrg(s, await s.user(), 'user');
    const url = `${A}/orgs/acme/users/${u.username}`;
    const set = await call(s, 'PUT', url, owner, { role: 'manager', balance: { credits: '40' } });
    expect(set.body).toMatchObject({ role: 'manager', balance: { credits: '40' } });
    const unlimited = await call(s, 'PUT', url, owner, {
      role: 'manager',
      balance: { credits: null },
    });
    expect(unlimited.body.balance.credits).toBeNull();
    const bad = await call(s, 'PUT', url, owner, { role: 'user', balance: { credits: '-3' } });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toBe('Credits must be a non-negative number');
  });

  it('keeps the admin role for admins and never removes the last admin', async () => {
    const manager = await joinOrg(s, await s.user(), 'manager');
    const u = await joinOrg(s, await s.user(), 'user');
    const promote = await call(s, 'PUT', `${A}/orgs/acme/users/${u.username}`, manager, {
      role: 'admin',
    });
    expect(promote.status).toBe(403);
    expect(
      (await call(s, 'DELETE', `${A}/orgs/acme/users/${owner.username}`, manager)).status,
    ).toBe(403);
    const last = await call(s, 'DELETE', `${A}/orgs/acme/users/${owner.username}`, owner);
    expect(last.status).toBe(409);
    expect(last.body.message).toBe('An organization needs at least one admin');
  });

  it('takes a removed member out of the organization’s projects and clusters', async () => {
    const u = await joinOrg(s, await s.user(), 'user');
    const P = `${A}/clusters/default/orgs/acme/projects/vision/users`;
    await call(s, 'POST', P, owner, { user_name: u.username, role: 'writer' });
    await call(s, 'POST', `${A}/clusters/default/orgs/acme/users`, owner, {
      user_name: u.username,
      role: 'manager',
    });
    expect((await call(s, 'GET', P, u)).status).toBe(200);
    expect((await call(s, 'DELETE', `${A}/orgs/acme/users/${u.username}`, owner)).status).toBe(204);
    expect((await call(s, 'GET', P, u)).status).toBe(404);
    expect((await call(s, 'GET', '/api/v1/config', u)).body.clusters).toEqual([]);
  });

  it('adds only organization members to a cluster, once, and edits and removes them', async () => {
    const u = await joinOrg(s, await s.user(), 'user');
    const stranger = await s.user();
    const url = `${A}/clusters/default/orgs/acme/users`;
    expect(
      (await call(s, 'POST', url, owner, { user_name: stranger.username, role: 'user' })).status,
    ).toBe(404);
    const added = await call(s, 'POST', url, owner, { user_name: u.username, role: 'user' });
    expect(added.status).toBe(201);
    expect(added.body).toMatchObject({
      user_name: u.username,
      cluster_name: 'default',
      role: 'user',
    });
    expect(
      (await call(s, 'POST', url, owner, { user_name: u.username, role: 'user' })).status,
    ).toBe(409);
    const edited = await call(s, 'PUT', `${url}/${u.username}`, owner, { role: 'manager' });
    expect(edited.body.role).toBe('manager');
    const list = await call(s, 'GET', `${url}?with_user_info=true`, u);
    expect(list.body.map((x: { user_name: string }) => x.user_name)).toEqual([u.username]);
    expect((await call(s, 'DELETE', `${url}/${u.username}`, owner)).status).toBe(204);
    expect((await call(s, 'GET', url, owner)).body).toEqual([]);
  });

  it('answers 404 for a cluster the organization is not linked to', async () => {
    const r = await call(s, 'GET', `${A}/clusters/elsewhere/orgs/acme/users`, owner);
    expect(r.status).toBe(404);
  });

  it('adds organization members to a project with a member role, and guards its admin', async () => {
    const P = `${A}/clusters/default/orgs/acme/projects/vision/users`;
    const u = await joinOrg(s, await s.user(), 'user');
    const added = await call(s, 'POST', P, owner, { user_name: u.username, role: 'manager' });
    expect(added.body).toMatchObject({ project_name: 'vision', role: 'manager' });
    expect((await call(s, 'POST', P, owner, { user_name: 'x', role: 'admin' })).status).toBe(400);
    // The new manager may manage members, but not the project's admin.
    const demote = await call(s, 'PUT', `${P}/${owner.username}`, u, { role: 'reader' });
    expect(demote.status).toBe(403);
    const list = await call(s, 'GET', P, u);
    expect(list.body.map((x: { role: string }) => x.role).sort()).toEqual(['admin', 'manager']);
    expect((await call(s, 'DELETE', `${P}/${u.username}`, owner)).status).toBe(204);
  });

  it('finds platform users by prefix of name or e-mail, after two characters', async () => {
    await s.user({ username: 'zelda-smith', name: 'Zelda Smith', email: 'zs@example.test' });
    const q = (query: string) => call(s, 'GET', `${A}/users?lookup=true&query=${query}`, owner);
    expect((await q('ze')).body).toEqual([{ name: 'zelda-smith', email: 'zs@example.test' }]);
    expect((await q('smi')).body).toEqual([{ name: 'zelda-smith', email: 'zs@example.test' }]);
    expect((await q('zs@')).body).toHaveLength(1);
    expect((await q('elda')).body).toEqual([]);
    const short = await q('z');
    expect(short.status).toBe(400);
    expect(short.body.message).toBe('Type at least 2 characters');
  });
});
