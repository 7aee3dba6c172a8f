import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clusterMembers, clusters } from '../../db/schema.js';
import { startTestServer, type TestServer, type TestUser } from '../../test/harness.js';
import { addProject, call, joinOrg, projectMember, tenancy } from '../../test/fixtures.js';

const A = '/apis/admin/v1';
const names = (body: { name: string }[]) => body.map((x) => x.name);

describe('the admin API as apolo admin reads it', () => {
  let s: TestServer;
  let admin: TestUser;
  let owner: TestUser;
  let member: TestUser;
  let outsider: TestUser;
  beforeAll(async () => {
    s = await startTestServer();
    admin = await s.user({ systemRole: 'admin' });
    ({ owner } = await tenancy(s));
    await addProject(s, owner, 'acme', 'speech');
    member = await projectMember(s, 'writer');
    outsider = await s.user();
    await call(s, 'POST', '/api/v1/orgs', outsider, { name: 'elsewhere' });
    await addProject(s, outsider, 'elsewhere', 'hidden');
    await s.ctx.db.insert(clusters).values({ name: 'lab' });
    await s.ctx.db.insert(clusterMembers).values({
      clusterName: 'default',
      userId: member.id,
      role: 'user',
    });
  });
  afterAll(() => s.stop());

  it('names admin_url in /config for a signed-in caller only', async () => {
    const config = await call(s, 'GET', '/api/v1/config', member);
    expect(config.body.admin_url).toBe(`${s.config.publicUrl}/apis/admin/v1`);
    expect((await call(s, 'GET', '/api/v1/config')).body.admin_url).toBeUndefined();
  });

  it('get-clusters: an administrator sees every cluster, others their own', async () => {
    expect(names((await call(s, 'GET', `${A}/clusters`, admin)).body)).toEqual(['default', 'lab']);
    expect(names((await call(s, 'GET', `${A}/clusters`, member)).body)).toEqual(['default']);
    expect((await call(s, 'GET', `${A}/clusters/lab`, member)).status).toBe(404);
    expect((await call(s, 'GET', `${A}/clusters/default`, member)).body.name).toBe('default');
    const config = await call(s, 'GET', '/api/v1/clusters', member);
    expect(config.body).toEqual([
      expect.objectContaining({ name: 'default', status: 'deployed', timezone: 'UTC' }),
    ]);
    expect(names((await call(s, 'GET', '/api/v1/clusters', admin)).body)).toEqual([
      'default',
      'lab',
    ]);
    expect((await call(s, 'GET', '/api/v1/clusters')).status).toBe(401);
  });

  it('get-orgs and get-org-users: their own organizations only', async () => {
    expect(names((await call(s, 'GET', `${A}/orgs`, owner)).body)).toEqual(['acme']);
    expect(names((await call(s, 'GET', `${A}/orgs`, admin)).body)).toEqual(['acme', 'elsewhere']);
    expect((await call(s, 'GET', `${A}/orgs/acme`, owner)).body.name).toBe('acme');
    expect((await call(s, 'GET', `${A}/orgs/elsewhere`, owner)).status).toBe(404);
    const users = await call(s, 'GET', `${A}/orgs/acme/users`, owner);
    expect(users.body.map((u: { user_name: string }) => u.user_name)).toContain(owner.username);
    expect((await call(s, 'GET', `${A}/orgs/acme/users`, outsider)).status).toBe(404);
    // What `apolo config show` asks once admin_url is known.
    const link = await call(s, 'GET', `${A}/clusters/default/orgs/acme`, owner);
    expect(link.body.org_name).toBe('acme');
    expect((await call(s, 'GET', `${A}/clusters/default/orgs/acme`, outsider)).status).toBe(404);
  });

  it('get-projects CLUSTER: all for an administrator or org manager, else their own', async () => {
    const all = await call(s, 'GET', `${A}/clusters/default/projects`, admin);
    expect(names(all.body)).toEqual(['speech', 'vision', 'hidden']);
    expect(all.body[0]).toEqual({
      name: 'speech',
      cluster_name: 'default',
      org_name: 'acme',
      is_default: false,
      default_role: 'writer',
      has_virtual_kube: false,
    });
    const mine = await call(s, 'GET', `${A}/clusters/default/projects`, owner);
    expect(names(mine.body)).toEqual(['speech', 'vision']);
    const member2 = await joinOrg(s, await s.user(), 'user');
    expect((await call(s, 'GET', `${A}/clusters/default/projects`, member2)).body).toEqual([]);
    expect(names((await call(s, 'GET', `${A}/clusters/default/projects`, member)).body)).toEqual([
      'vision',
    ]);
    const inOrg = await call(s, 'GET', `${A}/clusters/default/orgs/elsewhere/projects`, outsider);
    expect(names(inOrg.body)).toEqual(['hidden']);
    expect((await call(s, 'GET', `${A}/clusters/lab/projects`, owner)).status).toBe(404);
  });

  it('get-cluster-users: managers and administrators see everyone, others themselves', async () => {
    const byAdmin = await call(s, 'GET', `${A}/clusters/default/users?with_user_info=true`, admin);
    expect(byAdmin.body).toContainEqual(
      expect.objectContaining({
        user_name: member.username,
        role: 'user',
        org_name: null,
        user_info: expect.objectContaining({ email: member.email }),
      }),
    );
    const self = await call(s, 'GET', `${A}/clusters/default/users`, member);
    expect(self.body.map((u: { user_name: string }) => u.user_name)).toEqual([member.username]);
    expect((await call(s, 'GET', `${A}/clusters/default/users`, owner)).body).toEqual([]);
    expect((await call(s, 'GET', `${A}/clusters/lab/users`, owner)).status).toBe(404);
  });

  it('keeps changes for administrators', async () => {
    const preset = { name: 'p', cpu: 1, memory: 1 << 30, credits_per_hour: '1' };
    const path = '/api/v1/clusters/default/orchestrator/resource_presets';
    expect((await call(s, 'POST', path, owner, preset)).status).toBe(403);
    expect((await call(s, 'GET', path, owner)).status).toBe(403);
    expect((await call(s, 'POST', `${A}/users`, owner, { name: 'x' })).status).toBe(403);
  });
});
