import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jobs, projects } from '../../db/schema.js';
import { QUIET_JOBS, startTestServer, type TestServer, type TestUser } from '../../test/harness.js';
import {
  addProject,
  bearer,
  call,
  joinCluster,
  joinOrg,
  projectMember,
  tenancy,
} from '../../test/fixtures.js';
import { clusterQuotas } from './store.js';
import { orgQuotas, projectQuotas } from './tables.js';

const A = '/apis/admin/v1/clusters/default';
const ORG = `${A}/orgs/acme`;
const QUOTA = `${ORG}/quota`;
const project = (name: string, org = 'acme') => `${A}/orgs/${org}/projects/${name}/quota`;
const GB = 1e9;
const UNLIMITED = { cpu: null, memory: null, nvidia_gpu: null, amd_gpu: null, intel_gpu: null };

describe('resource quotas of organizations and projects', () => {
  let s: TestServer;
  let admin: TestUser;
  let owner: TestUser;
  let reader: TestUser;
  let orgManager: TestUser;
  let orgUser: TestUser;
  let clusterManager: TestUser;
  let other: TestUser;
  beforeAll(async () => {
    // A test here writes running jobs straight into the table: the loop would end them as lost
    // between two reads.
    s = await startTestServer({}, QUIET_JOBS);
    admin = await s.user({ systemRole: 'admin' });
    ({ owner } = await tenancy(s));
    await addProject(s, owner, 'acme', 'speech');
    reader = await projectMember(s, 'reader');
    orgManager = await joinOrg(s, await s.user(), 'manager');
    orgUser = await joinOrg(s, await s.user(), 'user');
    clusterManager = await joinCluster(s, await s.user(), 'manager');
    ({ owner: other } = await tenancy(s, 'beta', 'lab'));
  });
  afterAll(() => s.stop());

  const patch = (body: unknown, who = admin) => call(s, 'PATCH', QUOTA, who, body);

  it('sets, adds to and clears an organization’s quota; the jobs quota keeps Apolo’s rules', async () => {
    const set = await patch({
      quota: {
        total_running_jobs: 10,
        cpu: 16,
        memory: 64 * GB,
        nvidia_gpu: 4,
        borrowing_limit: { nvidia_gpu: 2 },
      },
    });
    expect(set.status).toBe(200);
    const full = {
      total_running_jobs: 10,
      ...UNLIMITED,
      cpu: 16,
      memory: 64 * GB,
      nvidia_gpu: 4,
      borrowing_limit: { ...UNLIMITED, nvidia_gpu: 2 },
    };
    expect(set.body.quota).toEqual(full);
    // Every read of the organization's link answers the same quota.
    expect((await call(s, 'GET', ORG, owner)).body.quota).toEqual(full);
    const listed = await call(s, 'GET', `${A}/orgs`, admin);
    expect(listed.body.find((o: { org_name: string }) => o.org_name === 'acme').quota).toEqual(
      full,
    );
    // What the official CLI sends (`set-org-cluster-quota --jobs 7`, then "unlimited" as {}) and
    // `update-org-cluster`'s PUT leave the resource quotas alone.
    expect((await patch({ quota: { total_running_jobs: 7 } })).body.quota).toEqual({
      ...full,
      total_running_jobs: 7,
    });
    expect((await patch({ quota: {} })).body.quota).toEqual({ ...full, total_running_jobs: null });
    const put = await call(s, 'PUT', ORG, admin, {
      org_name: 'acme',
      quota: { total_running_jobs: 3 },
      balance: { spent_credits: '0' },
      default_quota: {},
      default_role: 'user',
      maintenance: false,
    });
    expect(put.body).toMatchObject({ quota: { ...full, total_running_jobs: 3 } });
    // Deltas: added where limited, an unlimited amount stays unlimited.
    const added = await patch({
      additional_quota: {
        total_running_jobs: 2,
        cpu: 0.5,
        nvidia_gpu: -1,
        amd_gpu: 2,
        borrowing_limit: { nvidia_gpu: 1 },
      },
    });
    expect(added.body.quota).toEqual({
      ...full,
      total_running_jobs: 5,
      cpu: 16.5,
      nvidia_gpu: 3,
      borrowing_limit: { ...UNLIMITED, nvidia_gpu: 3 },
    });
    // Null clears one amount, or every borrowing limit at once.
    const cleared = await patch({ quota: { cpu: null, borrowing_limit: null } });
    expect(cleared.body.quota).toEqual({
      ...full,
      total_running_jobs: null,
      cpu: null,
      nvidia_gpu: 3,
      borrowing_limit: UNLIMITED,
    });
  });

  it.each([
    [{ quota: { cpu: -1 } }, 'quota.cpu', 'CPU must be a positive number'],
    [{ quota: { memory: 'lots' } }, 'quota.memory', 'Memory must be a positive number'],
    [{ quota: { memory: 1.5 } }, 'quota.memory', 'Memory must be a whole number'],
    [{ quota: { nvidia_gpu: -2 } }, 'quota.nvidia_gpu', 'NVIDIA GPUs must be a positive number'],
    [
      { quota: { total_running_jobs: -1 } },
      'quota.total_running_jobs',
      'Jobs must be a positive number',
    ],
    [
      { quota: { amd_gpu: 1, borrowing_limit: { amd_gpu: -1 } } },
      'quota.borrowing_limit.amd_gpu',
      'AMD GPUs borrowing limit must be a positive number',
    ],
    [
      { quota: { borrowing_limit: { intel_gpu: 1 } } },
      'quota.borrowing_limit.intel_gpu',
      'A borrowing limit of Intel GPUs needs a quota of Intel GPUs: without one, its use is not limited',
    ],
    [
      { additional_quota: { memory: -65 * GB } },
      'additional_quota.memory',
      'Memory must be a positive number',
    ],
    [
      { additional_quota: { borrowing_limit: { nvidia_gpu: -100 } } },
      'additional_quota.borrowing_limit.nvidia_gpu',
      'NVIDIA GPUs borrowing limit must be a positive number',
    ],
    [{ additional_quota: { cpu: 'x' } }, 'additional_quota.cpu', 'CPU must be a number'],
    [{ quota: { gpu: 1 } }, 'quota', 'Unrecognized key: "gpu"'],
    [{ quota: {}, additional_quota: {} }, '', 'Send either quota or additional_quota'],
  ])(
    'refuses an organization quota of %j with the field’s message',
    async (body, path, message) => {
      const base = { cpu: 4, memory: 64 * GB, nvidia_gpu: 3, amd_gpu: null, intel_gpu: null };
      await patch({ quota: { ...base, borrowing_limit: { ...UNLIMITED, nvidia_gpu: 3 } } });
      const before = (await call(s, 'GET', ORG, admin)).body.quota;
      const r = await patch(body);
      expect(r.status).toBe(400);
      expect(r.body.errors).toContainEqual({ path, message });
      expect((await call(s, 'GET', ORG, admin)).body.quota).toEqual(before);
    },
  );

  it('lets organization managers split the quota among projects, never beyond it', async () => {
    await patch({ quota: { cpu: 8, memory: 32 * GB, nvidia_gpu: 4 } });
    const vision = await call(s, 'PUT', project('vision'), owner, {
      nvidia_gpu: 3,
      memory: 16 * GB,
      borrowing_limit: { nvidia_gpu: 1 },
    });
    expect(vision.status).toBe(200);
    expect(vision.body).toEqual({
      cluster_name: 'default',
      org_name: 'acme',
      project_name: 'vision',
      ...UNLIMITED,
      nvidia_gpu: 3,
      memory: 16 * GB,
      borrowing_limit: { ...UNLIMITED, nvidia_gpu: 1 },
      used: { cpu: 0, memory: 0, nvidia_gpu: 0, amd_gpu: 0, intel_gpu: 0, total_running_jobs: 0 },
    });
    const over = await call(s, 'PUT', project('speech'), orgManager, { nvidia_gpu: 2 });
    expect(over.status).toBe(400);
    expect(over.body.errors).toEqual([
      {
        path: 'nvidia_gpu',
        message:
          "NVIDIA GPUs: the nominal quotas of the projects of acme add up to 5 NVIDIA GPUs, more than the organization's 4 NVIDIA GPUs",
      },
    ]);
    const memory = await call(s, 'PUT', project('speech'), orgManager, { memory: 17 * GB });
    expect(memory.body.message).toBe(
      "Memory: the nominal quotas of the projects of acme add up to 33 GB, more than the organization's 32 GB",
    );
    expect((await call(s, 'PUT', project('speech'), orgManager, { nvidia_gpu: 1 })).status).toBe(
      200,
    );
    // Lowering the organization's quota below its projects' is refused the same way.
    const lower = await patch({ quota: { nvidia_gpu: 3 } });
    expect(lower.status).toBe(400);
    expect(lower.body.errors).toEqual([
      {
        path: 'quota.nvidia_gpu',
        message:
          "NVIDIA GPUs: the nominal quotas of the projects of acme add up to 4 NVIDIA GPUs, more than the organization's 3 NVIDIA GPUs",
      },
    ]);
    // A project's PUT replaces its whole quota: what it leaves out is unlimited.
    const replaced = await call(s, 'PUT', project('speech'), orgManager, { cpu: 2 });
    expect(replaced.body).toMatchObject({ ...UNLIMITED, cpu: 2 });
    const refused = await call(s, 'PUT', project('speech'), orgManager, {
      borrowing_limit: { cpu: 1 },
      gpus: 1,
    });
    expect(refused.status).toBe(400);
  });

  it('answers what the running jobs of each project hold, and the organization’s total', async () => {
    const resources = (cpu: number, memory: number, gpu = 0) => ({
      image: 'busybox',
      resources: { cpu, memory, memory_mb: memory / 2 ** 20, shm: false, nvidia_gpu: gpu },
      env: {},
      volumes: [],
    });
    const job = (
      id: string,
      p: string,
      status: string,
      container: object,
      materialized = true,
    ) => ({
      id,
      clusterName: 'default',
      orgName: 'acme',
      projectName: p,
      owner: owner.username,
      status,
      container,
      runtime: 'process',
      materialized,
    });
    await s.ctx.db.insert(jobs).values([
      job('job-q1', 'vision', 'running', resources(1.5, 2 * GB, 2)),
      job('job-q2', 'vision', 'running', resources(0.25, 1 * GB)),
      job('job-q3', 'speech', 'running', resources(1, 4 * GB)),
      // Neither a job that ended nor one still waiting to start holds anything.
      job('job-q4', 'vision', 'succeeded', resources(8, 8 * GB, 1)),
      job('job-q5', 'vision', 'pending', resources(8, 8 * GB, 1), false),
    ]);
    const vision = await call(s, 'GET', project('vision'), reader);
    expect(vision.body.used).toEqual({
      cpu: 1.75,
      memory: 3 * GB,
      nvidia_gpu: 2,
      amd_gpu: 0,
      intel_gpu: 0,
      total_running_jobs: 2,
    });
    const org = await call(s, 'GET', QUOTA, orgManager);
    expect(org.status).toBe(200);
    expect(org.body).toMatchObject({
      cluster_name: 'default',
      org_name: 'acme',
      cpu: 8,
      nvidia_gpu: 4,
      used: { cpu: 2.75, memory: 7 * GB, nvidia_gpu: 2, total_running_jobs: 3 },
    });
    expect(org.body.projects.map((p: { project_name: string }) => p.project_name)).toEqual([
      'speech',
      'vision',
    ]);
    // A project's member sees the organization's figures and only their own project's.
    const asReader = await call(s, 'GET', QUOTA, reader);
    expect(asReader.body.used.total_running_jobs).toBe(3);
    expect(asReader.body.projects.map((p: { project_name: string }) => p.project_name)).toEqual([
      'vision',
    ]);
    await s.ctx.db.delete(jobs).where(eq(jobs.orgName, 'acme'));
  });

  it('lets cluster managers and administrators edit organizations’ quotas, nobody else', async () => {
    expect((await patch({ quota: { cpu: 9 } }, clusterManager)).status).toBe(200);
    for (const who of [owner, orgManager, reader]) {
      const r = await patch({ quota: { cpu: 100 } }, who);
      expect(r.status).toBe(403);
      expect((await call(s, 'PUT', ORG, who, { quota: { total_running_jobs: 1 } })).status).toBe(
        403,
      );
    }
    expect((await call(s, 'GET', ORG, admin)).body.quota.cpu).toBe(9);
  });

  it('keeps projects’ quotas to their organization’s managers, and each tenant to itself', async () => {
    // A reader reads, and may not edit.
    expect((await call(s, 'GET', project('vision'), reader)).status).toBe(200);
    const edit = await call(s, 'PUT', project('vision'), reader, { nvidia_gpu: 4 });
    expect(edit.status).toBe(403);
    // A member of the organization outside the project does not see it.
    expect((await call(s, 'GET', project('vision'), orgUser)).status).toBe(404);
    expect((await call(s, 'PUT', project('vision'), orgUser, { cpu: 1 })).status).toBe(404);
    // Another organization's manager finds neither acme's projects nor its quota, and reads the
    // same answer as for an organization that does not exist.
    for (const [method, body] of [
      ['GET', undefined],
      ['PUT', { cpu: 1 }],
    ] as const) {
      const real = await call(s, method, project('vision'), other, body);
      const ghost = await call(s, method, project('vision', 'no-such-org'), other, body);
      expect(real.status).toBe(404);
      expect(JSON.stringify(real.body).replaceAll('acme', 'no-such-org')).toBe(
        JSON.stringify(ghost.body),
      );
    }
    expect((await call(s, 'GET', QUOTA, other)).status).toBe(404);
    expect((await call(s, 'PATCH', QUOTA, other, { quota: { cpu: 1 } })).status).toBe(403);
    // beta's owner splits beta's quota, and acme's owner cannot touch it.
    expect((await call(s, 'PUT', project('lab', 'beta'), other, { cpu: 1 })).status).toBe(200);
    expect((await call(s, 'PUT', project('lab', 'beta'), owner, { cpu: 5 })).status).toBe(404);
    expect((await call(s, 'GET', project('lab', 'beta'), other)).body.cpu).toBe(1);
    // A project token reads its own project's quota and the organization's, and changes none.
    const made = await call(
      s,
      'POST',
      '/api/v1/clusters/default/orgs/acme/projects/vision/tokens',
      owner,
      {
        name: 'ci-bot',
        role: 'manager',
        expires_at: new Date(Date.now() + 86_400_000).toISOString(),
      },
    );
    const bot = bearer(made.body.token);
    expect((await call(s, 'GET', project('vision'), bot)).status).toBe(200);
    expect((await call(s, 'GET', QUOTA, bot)).body.projects).toHaveLength(1);
    expect((await call(s, 'GET', project('speech'), bot)).status).toBe(404);
    expect((await call(s, 'PUT', project('vision'), bot, { cpu: 1 })).status).toBe(403);
    expect((await call(s, 'PATCH', QUOTA, bot, { quota: { cpu: 1 } })).status).toBe(403);
    // A project that does not exist.
    expect((await call(s, 'GET', project('nope'), owner)).body.message).toBe(
      'Project nope not found',
    );
  });

  it('links an organization with its resource quotas, or not at all when one is refused', async () => {
    const add = await call(s, 'POST', '/apis/admin/v1/orgs?skip_auto_add_to_clusters=true', admin, {
      name: 'gamma',
    });
    expect(add.status).toBe(201);
    const link = (quota: object) =>
      call(s, 'POST', `${A}/orgs`, admin, { org_name: 'gamma', quota });
    const refused = await link({ borrowing_limit: { cpu: 1 } });
    expect(refused.status).toBe(400);
    expect(refused.body.errors[0].path).toBe('quota.borrowing_limit.cpu');
    const linked = (await call(s, 'GET', `${A}/orgs`, admin)).body.map(
      (o: { org_name: string }) => o.org_name,
    );
    expect(linked).not.toContain('gamma');
    const made = await link({ total_running_jobs: 2, cpu: 2, borrowing_limit: { cpu: 1 } });
    expect(made.status).toBe(201);
    expect(made.body.quota).toEqual({
      total_running_jobs: 2,
      ...UNLIMITED,
      cpu: 2,
      borrowing_limit: { ...UNLIMITED, cpu: 1 },
    });
    // Only administrators link; a cluster manager changes the quota of a linked organization.
    expect((await call(s, 'DELETE', `${A}/orgs/gamma`, clusterManager)).status).toBe(403);
    expect((await call(s, 'DELETE', `${A}/orgs/gamma`, admin)).status).toBe(204);
  });

  it('gives the scheduler every quota set on the cluster', async () => {
    await patch({
      quota: {
        total_running_jobs: 6,
        cpu: 9,
        nvidia_gpu: 4,
        memory: null,
        borrowing_limit: { nvidia_gpu: 2 },
      },
    });
    await call(s, 'PUT', project('vision'), owner, {
      nvidia_gpu: 3,
      borrowing_limit: { nvidia_gpu: 1 },
    });
    await call(s, 'PUT', project('speech'), owner, {});
    const q = await clusterQuotas(s.ctx.db, 'default');
    expect(q.orgs.get('acme')).toEqual({
      maxRunningJobs: 6,
      nominal: { cpu: 9, nvidia_gpu: 4 },
      borrowingLimit: { nvidia_gpu: 2 },
    });
    expect(q.projects.get('acme/vision')).toEqual({
      nominal: { nvidia_gpu: 3 },
      borrowingLimit: { nvidia_gpu: 1 },
    });
    // A project with no quota, and an organization with none, are not named.
    expect(q.projects.has('acme/speech')).toBe(false);
    expect(q.orgs.has('beta')).toBe(false);
    expect(q.projects.get('beta/lab')).toEqual({ nominal: { cpu: 1 } });
  });

  it('forgets a project’s quota with the project, and an organization’s with its link', async () => {
    await s.ctx.db.delete(projects).where(eq(projects.name, 'lab'));
    const left = await s.ctx.db.select().from(projectQuotas);
    expect(left).toHaveLength(2);
    expect((await call(s, 'DELETE', `${A}/orgs/acme`, admin)).status).toBe(204);
    expect(await s.ctx.db.select().from(orgQuotas).where(eq(orgQuotas.orgName, 'acme'))).toEqual(
      [],
    );
  });
});
