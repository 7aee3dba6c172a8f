import { cpus } from 'node:os';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { presets } from '../../db/schema.js';
import { type TestServer, type TestUser } from '../../test/harness.js';
import { call, jobReaches, submitJob, tenantServer } from '../../test/fixtures.js';
import { invalidateCatalog } from '../clusters/store.js';

/**
 * The quotas set through the API hold jobs on the process runtime (docs/quotas.md): a project
 * whose CPU quota one job fills, with nothing to borrow, keeps its next job waiting with the
 * quota's figures, and starts it once its quota is raised. Each job asks for a quarter of this
 * machine's cores, so the machine itself always has room for both.
 */
describe('quotas hold jobs', () => {
  let s: TestServer;
  let owner: TestUser;
  let admin: TestUser;
  const quarter = cpus().length / 4;
  const QUOTA = '/apis/admin/v1/clusters/default/orgs/acme/projects/vision/quota';

  const run = () => submitJob(s, owner, 'sleep 600', { preset_name: 'quarter' });
  const until = <T>(check: () => Promise<T>) =>
    vi.waitFor(check, { timeout: 30_000, interval: 50 });
  const status = async (id: string) =>
    (await call(s, 'GET', `/api/v1/jobs/${id}`, owner)).body.status as string;

  tenantServer((x) => ({ s, owner } = x), {
    ORRERY_RUNTIME: 'process',
    ORRERY_KILL_GRACE_SECONDS: '1',
  });
  beforeAll(async () => {
    admin = await s.user({ systemRole: 'admin' });
    await s.ctx.db.insert(presets).values({
      clusterName: 'default',
      name: 'quarter',
      cpu: quarter,
      memory: 64 * 2 ** 20,
      creditsPerHour: '1',
    });
    invalidateCatalog(s.ctx.clusterCatalog);
  });

  it("keeps a project's job waiting at its quota, and starts it when the quota is raised", async () => {
    const org = await call(s, 'PATCH', '/apis/admin/v1/clusters/default/orgs/acme/quota', admin, {
      quota: { cpu: cpus().length },
    });
    expect(org.status).toBe(200);
    const set = await call(s, 'PUT', QUOTA, owner, {
      cpu: quarter,
      borrowing_limit: { cpu: 0 },
    });
    expect(set.status).toBe(200);
    const first = await run();
    await jobReaches(s, owner, first, 'running');
    const second = await run();
    const held = await until(async () => {
      const w = (await call(s, 'GET', `/api/v1/jobs/${second}/scheduling`, owner)).body;
      expect(w.reasons[0]?.kind).toBe('quota');
      return w;
    });
    expect(held.reasons[0]).toMatchObject({
      scope: 'project',
      resource: 'cpu',
      used: quarter,
      requested: quarter,
      nominal: quarter,
      borrowing_limit: 0,
    });
    expect(await status(second)).toBe('pending');
    expect((await call(s, 'GET', QUOTA, owner)).body.used).toMatchObject({
      cpu: quarter,
      total_running_jobs: 1,
    });
    await call(s, 'PUT', QUOTA, owner, { cpu: 2 * quarter, borrowing_limit: { cpu: 0 } });
    await jobReaches(s, owner, second, 'running');
    await Promise.all([first, second].map((id) => call(s, 'DELETE', `/api/v1/jobs/${id}`, owner)));
  });
});
