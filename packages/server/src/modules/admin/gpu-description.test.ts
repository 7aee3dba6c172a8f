import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer, type TestUser } from '../../test/harness.js';
import { call } from '../../test/fixtures.js';

const A = '/apis/admin/v1';

/**
 * A server told its machine's GPUs by ORRERY_GPU_DESCRIPTION: a STAND-IN for the probe
 * (`nvidia-smi`, the device nodes), as on a machine whose GPUs cannot be probed. This machine has
 * none; the description is what every reader of the machine's GPUs gets instead.
 */
describe('a machine described by ORRERY_GPU_DESCRIPTION', () => {
  let s: TestServer;
  let admin: TestUser;
  beforeAll(async () => {
    s = await startTestServer({
      ORRERY_GPU_DESCRIPTION: '{"nvidia":{"count":2,"model":"A100","memory":85899345920}}',
    });
    admin = await s.user({ systemRole: 'admin' });
  });
  afterAll(() => s?.close());

  it('is the first start’s local pool, with a GPU preset, and the pool’s live GPU capacity', async () => {
    const pools = await call(s, 'GET', `${A}/clusters/default/node_pools`, admin);
    expect(pools.status).toBe(200);
    const local = pools.body.find((p: { name: string }) => p.name === 'local');
    expect(local.gpus).toEqual([{ make: 'nvidia', count: 2, model: 'A100' }]);
    expect(local.capacity).toMatchObject({ nvidia_gpu: 2, amd_gpu: 0, intel_gpu: 0 });
    const presets = await call(
      s,
      'GET',
      '/api/v1/clusters/default/orchestrator/resource_presets',
      admin,
    );
    const gpuSmall = presets.body.find((p: { name: string }) => p.name === 'gpu-small');
    expect(gpuSmall).toMatchObject({ nvidia_gpu: { count: 1, model: 'A100' } });
  });
});
