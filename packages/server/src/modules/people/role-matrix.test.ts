import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { organizations } from '../../db/schema.js';
import { startTestServer, type TestServer, type TestUser } from '../../test/harness.js';
import { call, joinCluster, joinOrg, projectMember, tenancy } from '../../test/fixtures.js';

/**
 * The roles on the API (docs/permissions.md): every people and admin action, tried by each role, gets exactly
 * the answer the roles give — 2xx allowed, 403 seen but too weak, 404 not theirs to see.
 */
const ROLES = [
  'system',
  'orgAdmin',
  'orgManager',
  'orgUser',
  'clusterManager',
  'projectManager',
  'writer',
  'reader',
  'outsider',
] as const;
type Role = (typeof ROLES)[number];
type Answer = 'ok' | 403 | 404;

/** Expected answers in ROLES order. */
const row = (...answers: Answer[]) =>
  Object.fromEntries(ROLES.map((r, i) => [r, answers[i]])) as Record<Role, Answer>;
const ORG_READ = row('ok', 'ok', 'ok', 'ok', 'ok', 'ok', 'ok', 'ok', 404);
const ORG_MANAGE = row('ok', 'ok', 'ok', 403, 403, 403, 403, 403, 404);
const CLUSTER_PEOPLE = row('ok', 'ok', 'ok', 403, 'ok', 403, 403, 403, 404);
const PROJECT_READ = row('ok', 'ok', 404, 404, 404, 'ok', 'ok', 'ok', 404);
const PROJECT_MANAGE = row('ok', 'ok', 404, 404, 404, 'ok', 403, 403, 404);
const SYSTEM = row('ok', 403, 403, 403, 403, 403, 403, 403, 403);
const NOBODY = row(404, 404, 404, 404, 404, 404, 404, 404, 404);
const EVERYONE = row('ok', 'ok', 'ok', 'ok', 'ok', 'ok', 'ok', 'ok', 'ok');
// An organization's quota on a cluster is the cluster's managers' (docs/quotas.md); its projects'
// quotas are the organization's managers' and the cluster's, read by the project's members.
const CLUSTER_MANAGE = row('ok', 403, 403, 403, 'ok', 403, 403, 403, 403);
const PROJECT_QUOTA_READ = row('ok', 'ok', 'ok', 404, 'ok', 'ok', 'ok', 'ok', 404);
const PROJECT_QUOTA_SET = row('ok', 'ok', 'ok', 404, 'ok', 403, 403, 403, 404);
// The outsider manages an organization of their own, so may search for people to invite.
const LOOKUP = row('ok', 'ok', 'ok', 403, 403, 403, 403, 403, 'ok');

describe('role matrix of people and administration', () => {
  let s: TestServer;
  const who = {} as Record<Role, TestUser>;
  const A = '/apis/admin/v1';
  const P = `${A}/clusters/default/orgs/acme/projects/vision/users`;
  const presets = '/api/v1/clusters/default/orchestrator/resource_presets';
  const fresh = () => `p${randomUUID().slice(0, 8)}`;

  beforeAll(async () => {
    s = await startTestServer();
    who.system = await s.user({ systemRole: 'admin' });
    who.orgAdmin = (await tenancy(s)).owner;
    who.orgManager = await joinOrg(s, await s.user(), 'manager');
    who.orgUser = await joinOrg(s, await s.user(), 'user');
    who.clusterManager = await joinCluster(s, await joinOrg(s, await s.user(), 'user'), 'manager');
    who.projectManager = await joinOrg(s, await projectMember(s, 'manager'), 'user');
    who.writer = await joinOrg(s, await projectMember(s, 'writer'), 'user');
    who.reader = await joinOrg(s, await projectMember(s, 'reader'), 'user');
    who.outsider = await s.user();
    await call(s, 'POST', '/api/v1/orgs', who.outsider, { name: 'elsewhere' });
  });
  afterAll(() => s.stop());

  /** A new member of acme (in the cluster or project when asked), to act upon. */
  const target = async (where: 'org' | 'cluster' | 'project' = 'org') => {
    const u = await joinOrg(s, await s.user(), 'user');
    if (where === 'cluster') await joinCluster(s, u, 'user');
    if (where === 'project')
      await call(s, 'POST', P, who.system, { user_name: u.username, role: 'writer' });
    return u;
  };
  const invite = async () => {
    const r = await call(s, 'POST', `${A}/invites`, who.system, {
      email: `${fresh()}@example.test`,
      role_name: 'user',
      org_name: 'acme',
    });
    expect(r.status).toBe(201);
    return r.body.id as string;
  };
  const preset = async () => {
    const name = fresh();
    const r = await call(s, 'POST', presets, who.system, {
      name,
      cpu: 0.1,
      memory: 128e6,
      credits_per_hour: '1',
    });
    expect(r.status).toBe(201);
    return name;
  };
  const looseOrg = async () => {
    const name = fresh();
    await s.ctx.db.insert(organizations).values({ name });
    return name;
  };

  type Action = (u: TestUser) => Promise<{ status: number }>;
  const actions: [string, Record<Role, Answer>, Action][] = [
    [
      'list organization users',
      ORG_READ,
      (u) => call(s, 'GET', `${A}/orgs/acme/users?with_user_info=true`, u),
    ],
    [
      'add an organization user',
      ORG_MANAGE,
      async (u) =>
        call(s, 'POST', `${A}/orgs/acme/users`, u, {
          user_name: (await s.user()).username,
          role: 'user',
        }),
    ],
    [
      'edit an organization user',
      ORG_MANAGE,
      async (u) =>
        call(s, 'PUT', `${A}/orgs/acme/users/${(await target()).username}`, u, {
          role: 'user',
          balance: { credits: '5' },
        }),
    ],
    [
      'remove an organization user',
      ORG_MANAGE,
      async (u) => call(s, 'DELETE', `${A}/orgs/acme/users/${(await target()).username}`, u),
    ],
    [
      'invite by e-mail',
      ORG_MANAGE,
      (u) =>
        call(s, 'POST', `${A}/invites`, u, {
          email: `${fresh()}@example.test`,
          role_name: 'user',
          org_name: 'acme',
        }),
    ],
    [
      'list the organization’s invites',
      ORG_MANAGE,
      (u) => call(s, 'GET', `${A}/orgs/acme/invites`, u),
    ],
    [
      'resend an invite',
      ORG_MANAGE,
      async (u) =>
        call(s, 'POST', `${A}/invites/${await invite()}/resend`, u, { org_name: 'acme' }),
    ],
    [
      'remove an invite',
      ORG_MANAGE,
      async (u) => call(s, 'DELETE', `${A}/invites/${await invite()}`, u),
    ],
    ['list incoming invites', EVERYONE, (u) => call(s, 'GET', `${A}/invites/incoming`, u)],
    [
      'accept an invitation addressed to them',
      EVERYONE,
      async (u) => {
        const org = await looseOrg();
        const r = await call(s, 'POST', `${A}/invites`, who.system, {
          email: u.email,
          role_name: 'user',
          org_name: org,
        });
        return call(s, 'POST', `${A}/invites/${r.body.id}/accept`, u);
      },
    ],
    [
      'accept someone else’s invitation',
      NOBODY,
      async (u) => call(s, 'POST', `${A}/invites/${await invite()}/accept`, u),
    ],
    [
      'decline someone else’s invitation',
      NOBODY,
      async (u) => call(s, 'POST', `${A}/invites/${await invite()}/decline`, u),
    ],
    [
      'open someone else’s invitation to acme',
      ORG_MANAGE,
      async (u) => call(s, 'GET', `${A}/invites/${await invite()}`, u),
    ],
    ['look up platform users', LOOKUP, (u) => call(s, 'GET', `${A}/users?lookup=true&query=us`, u)],
    [
      'list cluster users',
      ORG_READ,
      (u) => call(s, 'GET', `${A}/clusters/default/orgs/acme/users`, u),
    ],
    [
      'add a cluster user',
      CLUSTER_PEOPLE,
      async (u) =>
        call(s, 'POST', `${A}/clusters/default/orgs/acme/users`, u, {
          user_name: (await target()).username,
          role: 'user',
        }),
    ],
    [
      'edit a cluster user',
      CLUSTER_PEOPLE,
      async (u) =>
        call(
          s,
          'PUT',
          `${A}/clusters/default/orgs/acme/users/${(await target('cluster')).username}`,
          u,
          { role: 'manager' },
        ),
    ],
    [
      'remove a cluster user',
      CLUSTER_PEOPLE,
      async (u) =>
        call(
          s,
          'DELETE',
          `${A}/clusters/default/orgs/acme/users/${(await target('cluster')).username}`,
          u,
        ),
    ],
    ['list project users', PROJECT_READ, (u) => call(s, 'GET', P, u)],
    [
      'add a project user',
      PROJECT_MANAGE,
      async (u) => call(s, 'POST', P, u, { user_name: (await target()).username, role: 'reader' }),
    ],
    [
      'edit a project user',
      PROJECT_MANAGE,
      async (u) =>
        call(s, 'PUT', `${P}/${(await target('project')).username}`, u, { role: 'reader' }),
    ],
    [
      'remove a project user',
      PROJECT_MANAGE,
      async (u) => call(s, 'DELETE', `${P}/${(await target('project')).username}`, u),
    ],
    ['list system users', SYSTEM, (u) => call(s, 'GET', `${A}/users`, u)],
    [
      'create a system user',
      SYSTEM,
      (u) => call(s, 'POST', `${A}/users`, u, { name: fresh(), email: `${fresh()}@example.test` }),
    ],
    [
      'change a system role',
      SYSTEM,
      async (u) => call(s, 'PUT', `${A}/users/${(await s.user()).username}`, u, { role: 'admin' }),
    ],
    [
      'delete a system user',
      SYSTEM,
      async (u) => call(s, 'DELETE', `${A}/users/${(await s.user()).username}`, u),
    ],
    // Lists answer everyone with what they may see (admin/reads.test.ts checks the scoping).
    ['list clusters', EVERYONE, (u) => call(s, 'GET', `${A}/clusters`, u)],
    [
      'list a cluster’s organizations',
      SYSTEM,
      (u) => call(s, 'GET', `${A}/clusters/default/orgs`, u),
    ],
    [
      'link an organization to a cluster',
      SYSTEM,
      async (u) =>
        call(s, 'POST', `${A}/clusters/default/orgs`, u, {
          org_name: await looseOrg(),
          quota: { total_running_jobs: 3 },
        }),
    ],
    [
      'update a cluster organization quota',
      CLUSTER_MANAGE,
      (u) =>
        call(s, 'PUT', `${A}/clusters/default/orgs/acme`, u, { quota: { total_running_jobs: '' } }),
    ],
    [
      'set a cluster organization resource quota',
      CLUSTER_MANAGE,
      (u) => call(s, 'PATCH', `${A}/clusters/default/orgs/acme/quota`, u, { quota: { cpu: 8 } }),
    ],
    [
      'read a cluster organization quota',
      ORG_READ,
      (u) => call(s, 'GET', `${A}/clusters/default/orgs/acme/quota`, u),
    ],
    [
      'read a project quota',
      PROJECT_QUOTA_READ,
      (u) => call(s, 'GET', `${A}/clusters/default/orgs/acme/projects/vision/quota`, u),
    ],
    [
      'set a project quota',
      PROJECT_QUOTA_SET,
      (u) => call(s, 'PUT', `${A}/clusters/default/orgs/acme/projects/vision/quota`, u, { cpu: 1 }),
    ],
    [
      'set storage volume credits',
      SYSTEM,
      (u) =>
        call(s, 'PATCH', `${A}/clusters/default/storage_volumes/default`, u, {
          credits_per_hour_per_gb: '0.5',
        }),
    ],
    ['list organizations', EVERYONE, (u) => call(s, 'GET', `${A}/orgs`, u)],
    [
      'set an organization balance',
      SYSTEM,
      (u) => call(s, 'PATCH', `${A}/orgs/acme/balance`, u, { credits: null }),
    ],
    ['list presets', SYSTEM, (u) => call(s, 'GET', presets, u)],
    [
      'create a preset',
      SYSTEM,
      (u) =>
        call(s, 'POST', presets, u, {
          name: fresh(),
          cpu: 0.1,
          memory: 128e6,
          credits_per_hour: 1,
        }),
    ],
    [
      'edit a preset',
      SYSTEM,
      async (u) => {
        const name = await preset();
        return call(s, 'PUT', `${presets}/${name}`, u, {
          name,
          cpu: 0.2,
          memory: 128e6,
          credits_per_hour: '2',
        });
      },
    ],
    ['delete a preset', SYSTEM, async (u) => call(s, 'DELETE', `${presets}/${await preset()}`, u)],
    ['list node pools', SYSTEM, (u) => call(s, 'GET', `${A}/clusters/default/node_pools`, u)],
    [
      'edit a node pool',
      SYSTEM,
      (u) =>
        call(s, 'PATCH', `${A}/clusters/default/node_pools/local`, u, {
          idle_size: '0',
          cpu_min_watts: '10',
          cpu_max_watts: '90',
        }),
    ],
  ];

  it.each(actions)('%s', async (_name, expected, act) => {
    const got: Record<string, Answer | number> = {};
    for (const role of ROLES) {
      const { status } = await act(who[role]);
      got[role] = status >= 200 && status < 300 ? 'ok' : status;
    }
    expect(got).toEqual(expected);
  });
});
