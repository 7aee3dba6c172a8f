// The nodes the slurm driver offers the scheduler, read from the private test cluster
// (scripts/slurm.mjs: n1 in partition `cpu`; n2 in `cpu` and `gpu`, with two GRES GPUs; 2 CPUs
// and 2000 MB each), through both of its ways in.
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  commandSpec,
  holdOneGpu,
  slurmApis,
  slurmCommand,
  testCluster,
  type TestCluster,
} from '../../test/slurm-cluster.js';
import { SlurmDriver } from './driver.js';

const MB = 2 ** 20;
const c = testCluster ?? ({} as TestCluster);

describe.skipIf(slurmApis.length === 0).each(slurmApis)('slurm nodes() ($api)', ({ api }) => {
  let shared: string;
  let driver: SlurmDriver;

  beforeAll(async () => {
    shared = mkdtempSync(join(process.env.ORRERY_TEST_SLURM_SHARED ?? tmpdir(), 'nodes-'));
    chmodSync(shared, 0o755);
    driver = await SlurmDriver.connect(
      {
        api,
        conf: c.conf,
        restUrl: c.restUrl,
        jwtKeyFile: c.jwtKeyPath,
        user: c.user,
        sharedDir: shared,
      },
      3000,
    );
  });
  afterAll(async () => {
    await driver?.close();
    rmSync(shared, { recursive: true, force: true });
  });

  it('offers every node per partition whole while nothing runs', async () => {
    const nodes = await driver.nodes();
    const [n1, n2] = [...new Set(nodes.map((n) => n.name))].sort();
    expect(nodes).toEqual([
      { name: n1, pool: 'cpu', cpu: 2, memory: 2000 * MB, workersPerJob: 1 },
      { name: n2, pool: 'cpu', cpu: 2, memory: 2000 * MB, gpus: { nvidia: 2 }, workersPerJob: 1 },
      { name: n2, pool: 'gpu', cpu: 2, memory: 2000 * MB, gpus: { nvidia: 2 }, workersPerJob: 1 },
    ]);
  });

  it('takes off what another user’s job holds, and not what Orrery’s own job holds', async () => {
    const ours = commandSpec(`nodes-${api}-${Date.now().toString(36)}`, 'sleep 60', {
      limits: { cpu: 1, memory: 500 * MB, shm: false, gpu: { vendor: 'nvidia', count: 1 } },
      placement: { pools: ['gpu'], preemptible: false, restartPolicy: 'never' },
    });
    await driver.start(ours);
    const other = await holdOneGpu(c, 'orrery-lookalike');
    try {
      await vi.waitFor(
        async () => {
          const states = await slurmCommand(c, 'squeue', ['-h', '-o', '%T']);
          expect(states.split('\n').filter((s) => s === 'RUNNING')).toHaveLength(2);
        },
        { timeout: 30_000, interval: 100 },
      );
      const nodes = await driver.nodes();
      const gpuNode = nodes.find((n) => n.pool === 'gpu')!;
      // n2 has 2 CPUs, 2000 MB, 2 GPUs; the other job holds 1 CPU, 300 MB and a GPU.
      expect(nodes.filter((n) => n.name === gpuNode.name)).toEqual([
        {
          name: gpuNode.name,
          pool: 'cpu',
          cpu: 1,
          memory: 1700 * MB,
          gpus: { nvidia: 1 },
          workersPerJob: 1,
        },
        {
          name: gpuNode.name,
          pool: 'gpu',
          cpu: 1,
          memory: 1700 * MB,
          gpus: { nvidia: 1 },
          workersPerJob: 1,
        },
      ]);
      expect(nodes.find((n) => n.name !== gpuNode.name)).toMatchObject({ cpu: 2 });
    } finally {
      await slurmCommand(c, 'scancel', [other]);
      await driver.kill(ours.id);
      await driver.remove(ours.id);
    }
  });
});
