import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { usageRecords } from '../../db/schema.js';
import { startTestServer, type TestServer, type TestUser } from '../../test/harness.js';
import {
  addProject,
  call,
  joinCluster,
  joinOrg,
  projectMember,
  tenancy,
} from '../../test/fixtures.js';

const NOV = 'start_date=2026-11-01T00:00:00&end_date=2026-12-01T00:00:00';
const usage = (scope: string) => `/apis/billing/v1/usage?${scope}&${NOV}&group_by=project`;
const top = (scope: string) => `/apis/billing/v1/top?${scope}&${NOV}`;
const ORG = 'org_name=acme';
const CLUSTER = 'org_name=acme&cluster_name=default';
const PROJECT = 'org_name=acme&cluster_name=default&project_name=vision';
const WHOLE_CLUSTER = 'cluster_name=default';

/** The reports' scopes: organization, project, an organization on a cluster, a whole cluster. */
describe('usage scoped for the reports', () => {
  let s: TestServer;
  let owner: TestUser;
  let rivalOwner: TestUser;
  let projectManager: TestUser;
  let projectWriter: TestUser;
  let clusterManager: TestUser;
  let orgUser: TestUser;
  let admin: TestUser;

  const record = (org: string, project: string, resource: string, credits: string) => ({
    category: 'jobs',
    clusterName: 'default',
    orgName: org,
    projectName: project,
    userId: owner.id,
    resourceUri: `job://default/${org}/${project}/${resource}`,
    resourceId: resource,
    startedAt: new Date('2026-11-03T10:00:00Z'),
    endedAt: new Date('2026-11-03T10:01:00Z'),
    credits,
  });

  beforeAll(async () => {
    s = await startTestServer();
    ({ owner } = await tenancy(s, 'acme', 'vision'));
    await addProject(s, owner, 'acme', 'nlp');
    ({ owner: rivalOwner } = await tenancy(s, 'rival', 'vision'));
    projectManager = await joinOrg(s, await projectMember(s, 'manager'), 'user');
    projectWriter = await joinOrg(s, await projectMember(s, 'writer'), 'user');
    clusterManager = await joinCluster(s, await joinOrg(s, await s.user(), 'user'), 'manager');
    orgUser = await joinOrg(s, await s.user(), 'user');
    admin = await s.user({ systemRole: 'admin' });
    await s.ctx.db
      .insert(usageRecords)
      .values([
        record('acme', 'vision', 'job-v', '3.0000'),
        record('acme', 'nlp', 'job-n', '2.0000'),
        record('rival', 'vision', 'job-r', '5.0000'),
      ]);
  });
  afterAll(() => s.stop());

  it("lets a project's managers read that project's usage, and nothing wider", async () => {
    const mine = await call(s, 'GET', usage(PROJECT), projectManager);
    expect(mine.status).toBe(200);
    expect(mine.body.total).toBe('3.0000');
    expect((await call(s, 'GET', top(PROJECT), projectManager)).body).toEqual([
      expect.objectContaining({ resource_id: 'job-v', credits: '3.0000' }),
    ]);
    expect((await call(s, 'GET', usage(ORG), projectManager)).status).toBe(403);
    const nlp = PROJECT.replace('vision', 'nlp');
    expect((await call(s, 'GET', usage(nlp), projectManager)).status).toBe(403);
    // Writers run work but do not read what it cost the project.
    expect((await call(s, 'GET', usage(PROJECT), projectWriter)).status).toBe(403);
  });

  it("lets a cluster's managers read each organization's usage on it", async () => {
    const onCluster = await call(s, 'GET', usage(CLUSTER), clusterManager);
    expect(onCluster.status).toBe(200);
    expect(onCluster.body.total).toBe('5.0000');
    expect((await call(s, 'GET', usage(CLUSTER), orgUser)).status).toBe(403);
    // An organization they are not in stays hidden.
    const rival = 'org_name=rival&cluster_name=default';
    expect((await call(s, 'GET', usage(rival), clusterManager)).status).toBe(404);
  });

  it('answers a whole cluster across organizations to its managers and administrators', async () => {
    const all = await call(s, 'GET', usage(WHOLE_CLUSTER), admin);
    expect(all.status).toBe(200);
    expect(all.body.total).toBe('10.0000');
    expect(all.body.clusters[0].usage).toEqual([
      { project_name: 'nlp', credits: '2.0000' },
      { project_name: 'vision', credits: '8.0000' },
    ]);
    expect((await call(s, 'GET', top(WHOLE_CLUSTER), admin)).body[0].resource_id).toBe('job-r');
    expect((await call(s, 'GET', usage(WHOLE_CLUSTER), clusterManager)).body.total).toBe('10.0000');
    // An organization's own managers do not read other tenants through the cluster.
    expect((await call(s, 'GET', usage(WHOLE_CLUSTER), owner)).status).toBe(403);
    expect((await call(s, 'GET', usage(WHOLE_CLUSTER), rivalOwner)).status).toBe(403);
  });

  it('still needs an organization or a cluster', async () => {
    const none = await call(s, 'GET', `/apis/billing/v1/usage?${NOV}`, owner);
    expect(none.status).toBe(400);
    expect(JSON.stringify(none.body)).toContain('org_name is required');
  });
});
