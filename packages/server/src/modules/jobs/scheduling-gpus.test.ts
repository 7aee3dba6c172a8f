import { beforeAll, describe, expect, it, vi } from 'vitest';
import { type TestServer, type TestUser } from '../../test/harness.js';
import { call, JOB_SCOPE, jobReaches, submitJob, tenantServer } from '../../test/fixtures.js';
import { presets } from '../../db/schema.js';
import { invalidateCatalog } from '../clusters/store.js';

/**
 * GPUs are counted by the scheduler (docs/scheduling.md) on the process runtime. This machine
 * has none: ORRERY_GPU_DESCRIPTION is the stand-in that says it has one (docs/operations.md), so
 * the first start makes the preset `gpu-small` of one GPU.
 */
describe('a GPU job while every GPU is taken', () => {
  let s: TestServer;
  let owner: TestUser;
  const run = () => submitJob(s, owner, 'sleep 600', { preset_name: 'gpu-small' });
  const until = (id: string, status: string) => jobReaches(s, owner, id, status, 20_000);

  tenantServer((x) => ({ s, owner } = x), {
    ORRERY_RUNTIME: 'process',
    ORRERY_GPU_DESCRIPTION: '{"nvidia":{"count":1,"model":"T4"}}',
  });
  beforeAll(async () => {
    // A preset of two GPUs prices the job the second test sends, which no node can hold.
    await s.ctx.db.insert(presets).values({
      clusterName: 'default',
      name: 'gpu-two',
      cpu: 0.1,
      memory: 64 * 2 ** 20,
      creditsPerHour: '1',
      gpus: { nvidia: { count: 2, model: 'T4' } },
    });
    invalidateCatalog(s.ctx.clusterCatalog);
  });

  it('waits for the GPU instead of failing, then starts when the GPU is given back', async () => {
    const first = await run();
    await until(first, 'running');
    const second = await run();
    const waiting = await vi.waitFor(
      async () => {
        const w = (await call(s, 'GET', `/api/v1/jobs/${second}/scheduling`, owner)).body;
        expect(w.position).toBe(1);
        return w;
      },
      { timeout: 10_000, interval: 50 },
    );
    expect(waiting.reasons[0].kind).toBe('capacity');
    expect(waiting.reasons[0].short).toContain('nvidia_gpu');
    expect(waiting.reasons[0].free[0].free.nvidia_gpu ?? 0).toBe(0);
    // The pass decides, then writes the waiting job's reason: the history follows the place.
    const pending = await vi.waitFor(
      async () => {
        const p = (await call(s, 'GET', `/api/v1/jobs/${second}`, owner)).body;
        expect(p).toMatchObject({ status: 'pending', history: { reason: 'ClusterScalingUp' } });
        return p;
      },
      { timeout: 10_000, interval: 50 },
    );
    expect(pending.history.description).toMatch(/no node has the .*NVIDIA GPUs the job needs/);
    await call(s, 'DELETE', `/api/v1/jobs/${first}`, owner);
    await until(second, 'running');
    await call(s, 'DELETE', `/api/v1/jobs/${second}`, owner);
  });

  it('refuses a job asking for more GPUs than the machine has', async () => {
    const r = await call(s, 'POST', '/api/v1/jobs', owner, {
      ...JOB_SCOPE,
      container: {
        image: 'busybox',
        command: 'true',
        resources: { cpu: 0.1, memory_mb: 64, nvidia_gpu: 2 },
      },
    });
    expect(r.status).toBe(400);
    expect(r.body.message).toMatch(
      /needs .*2 NVIDIA GPUs.*the largest node it may use has .*1 NVIDIA GPUs/,
    );
  });
});
