import { beforeAll, describe, expect, it } from 'vitest';
import { type TestServer, type TestUser } from '../../test/harness.js';
import { call, joinCluster, jobEnded, submitJob, tenantServer } from '../../test/fixtures.js';
import { poolStatuses } from '../admin/pools.js';
import { LocalGpus } from '../../runtime/machine.js';
import { POOL_SAMPLE_MS, samplePools, stepOf } from './reports-sampler.js';
import { poolSamples } from './tables.js';

const pools = (start: string, end: string) =>
  `/apis/billing/v1/pools?cluster_name=default&start_date=${start}&end_date=${end}`;

describe('node-pool utilisation', () => {
  let s: TestServer;
  let owner: TestUser;
  let clusterManager: TestUser;
  let admin: TestUser;

  tenantServer((x) => ({ s, owner } = x), {}, { billing: { poolSampleMs: Infinity } });
  beforeAll(async () => {
    clusterManager = await joinCluster(s, await s.user(), 'manager');
    admin = await s.user({ systemRole: 'admin' });
  });

  /** A job holds its resources once handed to the runtime. */
  async function running(id: string) {
    for (let i = 0; i < 300; i++) {
      if ((await call(s, 'GET', `/api/v1/jobs/${id}`, owner)).body.status === 'running') return;
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error(`job ${id} did not start`);
  }

  it("records each pool's use once per five minutes, whoever samples", async () => {
    const machine = new LocalGpus(s.ctx.config.runtime.gpus);
    const poolsOf = (cluster: string) => poolStatuses(s.ctx.db, cluster, machine);
    const idle = new Date('2026-11-03T10:01:00Z');
    expect(await samplePools(s.ctx.db, poolsOf, idle)).toBe(1);
    // A second replica (or a restart) in the same five minutes writes nothing.
    const again = new Date(idle.getTime() + 60_000);
    expect(await samplePools(s.ctx.db, poolsOf, again)).toBe(0);

    const job = await submitJob(s, owner, 'sleep 30');
    await running(job);
    const busy = new Date(idle.getTime() + POOL_SAMPLE_MS);
    expect(await samplePools(s.ctx.db, poolsOf, busy)).toBe(1);
    await call(s, 'DELETE', `/api/v1/jobs/${job}`, owner);
    await jobEnded(s, owner, job);

    const { status, body } = await call(
      s,
      'GET',
      pools('2026-11-03T10:00:00', '2026-11-03T11:00:00'),
      admin,
    );
    expect(status, JSON.stringify(body)).toBe(200);
    expect(body.step).toBe(300);
    const [pool] = body.pools;
    expect(pool.samples.map((p: { at: string }) => p.at)).toEqual([
      '2026-11-03T10:00:00Z',
      '2026-11-03T10:05:00Z',
    ]);
    const [before, during] = pool.samples;
    expect(before.cpu_used).toBe(0);
    expect(during.cpu_used).toBeGreaterThan(0);
    expect(during.memory_used).toBeGreaterThan(0);
    expect(during.cpu_total).toBeGreaterThanOrEqual(during.cpu_used);
    expect(during.memory_total).toBeGreaterThan(during.memory_used);
  });

  it('averages longer periods over wider steps, at most 300 points', async () => {
    expect(stepOf(new Date('2026-11-01'), new Date('2026-12-01'))).toBe(8_700_000);
    // 50 hours: ten-minute steps, where 10:00 and 10:05 are one point, their average.
    const { body } = await call(
      s,
      'GET',
      pools('2026-11-02T00:00:00', '2026-11-04T02:00:00'),
      admin,
    );
    expect(body.step).toBe(600);
    const [pool] = body.pools;
    expect(pool.samples).toHaveLength(1);
    expect(pool.samples[0].at).toBe('2026-11-03T10:00:00Z');
    // The server's own sampler also recorded today: only that morning's two samples count.
    const rows = (await s.ctx.db.select().from(poolSamples)).filter(
      (r) => r.sampledAt.toISOString().slice(0, 15) === '2026-11-03T10:0',
    );
    expect(rows).toHaveLength(2);
    const mean = rows.reduce((a, r) => a + r.cpuUsed, 0) / rows.length;
    expect(pool.samples[0].cpu_used).toBeCloseTo(mean, 5);
  });

  it("answers a cluster's managers and system administrators, no tenant", async () => {
    const url = pools('2026-11-03T10:00:00', '2026-11-03T11:00:00');
    expect((await call(s, 'GET', url, clusterManager)).status).toBe(200);
    // An organization manager reads the cluster its organization uses, but does not manage it.
    expect((await call(s, 'GET', url, owner)).status).toBe(403);
    expect((await call(s, 'GET', url, await s.user())).status).toBe(404);
    expect((await call(s, 'GET', url, null)).status).toBe(401);
    const bad = await call(s, 'GET', '/apis/billing/v1/pools?cluster_name=default', admin);
    expect(bad.status).toBe(400);
  });
});
