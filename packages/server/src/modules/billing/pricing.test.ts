import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { QUIET_JOBS, type TestServer, type TestUser } from '../../test/harness.js';
import { call, JOB_SCOPE, tenantServer } from '../../test/fixtures.js';
import { jobs, presets, usageRecords } from '../../db/schema.js';
import { invalidateCatalog } from '../clusters/store.js';
import { insertAppInstance } from '../../test/apps.js';
import { chargeSubjectOf, instanceTag } from '../apps/store.js';
import { charge } from '../jobs/accounting.js';
import { chargeableJob } from '../../test/billing.js';

const GB = 1e9;
const gpuPreset = (name: string, credits: string, model: string, count = 1) => ({
  clusterName: 'default',
  name,
  cpu: 1,
  memory: 4 * GB,
  creditsPerHour: credits,
  gpus: { nvidia: { count, model } },
  resourcePoolNames: ['local'],
});

/** What a job is charged at, and under which category and name its usage is recorded. */
describe('prices of jobs and apps', () => {
  let s: TestServer;
  let owner: TestUser;
  // The jobs loop leaves the rows alone: only the requests and charges below touch them.
  // A stand-in for this machine's GPUs (docs/operations.md): a GPU job that no node could hold
  // would be refused before it is priced.
  tenantServer(
    (x) => ({ s, owner } = x),
    { ORRERY_GPU_DESCRIPTION: '{"nvidia":{"count":2,"model":"T4"}}' },
    QUIET_JOBS,
  );
  beforeAll(async () => {
    // The first start made a preset of the described GPU: these prices are the test's own.
    await s.ctx.db.delete(presets).where(eq(presets.name, 'gpu-small'));
    await s.ctx.db
      .insert(presets)
      .values([
        gpuPreset('a100-1', '8', 'A100'),
        gpuPreset('t4-1', '2', 'T4'),
        gpuPreset('t4-2', '3', 'T4', 2),
      ]);
    invalidateCatalog(s.ctx.clusterCatalog);
  });

  /** Creates a job from bare resources (no preset) and answers its price on the wire. */
  const priceOf = async (resources: Record<string, unknown>) => {
    const r = await call(s, 'POST', '/api/v1/jobs', owner, {
      ...JOB_SCOPE,
      container: { image: 'busybox', command: 'true', resources },
    });
    expect(r.status, JSON.stringify(r.body)).toBe(202);
    await call(s, 'DELETE', `/api/v1/jobs/${r.body.id}`, owner);
    return { price: r.body.price_credits_per_hour, preset: r.body.preset_name };
  };

  it('prices a job without a preset at the cheapest preset its CPU, memory and GPU fit', async () => {
    expect(await priceOf({ cpu: 0.1, memory_mb: 64 })).toEqual({
      price: '0.0500',
      preset: 'cpu-small',
    });
    expect(await priceOf({ cpu: 0.1, memory_mb: 64, nvidia_gpu: 1 })).toEqual({
      price: '2.0000',
      preset: 't4-1',
    });
    expect(await priceOf({ cpu: 0.1, memory_mb: 64, nvidia_gpu: 2 })).toEqual({
      price: '3.0000',
      preset: 't4-2',
    });
    // A GPU model asked for: only presets of that model fit, however cheaper the others are.
    expect(
      await priceOf({ cpu: 0.1, memory_mb: 64, nvidia_gpu: 1, nvidia_gpu_model: 'A100' }),
    ).toEqual({ price: '8.0000', preset: 'a100-1' });
  });

  it('charges the jobs of an app instance under apps, named by the instance', async () => {
    const instance = await insertAppInstance(s, owner, {
      name: 'my-notebook',
      displayName: 'My notebook',
    });
    const started = new Date('2026-11-01T10:00:00Z');
    const values = (tags: string[]) =>
      chargeableJob(owner, { pricePerHour: '0.0500', startedAt: started, tags });
    const rows = await s.ctx.db
      .insert(jobs)
      .values([values([instanceTag(instance!.id), 'app-role:main']), values(['plain'])])
      .returning();
    const until = new Date(started.getTime() + 3_600_000);
    for (const row of rows) await charge(s.ctx.db, row, until, chargeSubjectOf);
    const usage = async (id: string) =>
      (await s.ctx.db.select().from(usageRecords).where(eq(usageRecords.resourceUri, id)))[0];
    expect(await usage(`job://default/acme/vision/${rows[0]!.id}`)).toMatchObject({
      category: 'apps',
      resourceId: 'my-notebook',
      credits: '0.0500',
    });
    expect(await usage(`job://default/acme/vision/${rows[1]!.id}`)).toMatchObject({
      category: 'jobs',
      resourceId: rows[1]!.id,
      credits: '0.0500',
    });
  });
});
