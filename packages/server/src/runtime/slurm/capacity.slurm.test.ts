// Node pools and node states read from the test cluster (scripts/slurm.mjs: partition `cpu` on
// both nodes, `gpu` on node 2 with two fake GPUs).
import { afterAll, expect, it } from 'vitest';
import { describeSlurm, holdOneGpu, slurmCommand } from '../../test/slurm-cluster.js';
import { readSlurmCapacity } from './capacity.js';
import { CommandsClient } from './commands.js';
import { RestClient } from './rest.js';

const MB = 2 ** 20;

describeSlurm('Slurm capacity', (c) => {
  const read = () => readSlurmCapacity(new CommandsClient(c.user, c.conf));
  const scontrol = (...args: string[]) => slurmCommand(c, 'scontrol', args);
  const nodeNames = async () => (await read()).nodes.map((n) => n.name);
  afterAll(async () => {
    // Whatever a failed test left, the next files get both nodes back.
    for (const n of await nodeNames())
      await scontrol('update', `nodename=${n}`, 'state=resume').catch(() => '');
  });

  it('reads the same through slurmrestd', async () => {
    const rest = await readSlurmCapacity(new RestClient(c.restUrl, c.jwtKeyPath, c.user));
    expect(rest.pools).toEqual((await read()).pools);
  });

  it('reads partitions as node pools, with GPU models from GRES', async () => {
    const { pools, nodes } = await read();
    expect(pools.map((p) => p.name)).toEqual(['cpu', 'gpu']);
    const gpu = pools.find((p) => p.name === 'gpu')!;
    expect(gpu.node).toEqual({ cpu: 2, memory: 2000 * MB, gpus: { model: 'fake', count: 2 } });
    expect(gpu.capacity).toEqual({ cpu: 2, memory: 2000 * MB, gpu: 2 });
    expect(pools.find((p) => p.name === 'cpu')!.nodes).toHaveLength(2);
    expect(nodes.every((n) => n.state === 'idle' || n.state === 'mix')).toBe(true);
  });

  it('takes what a running job holds off the available resources', async () => {
    const id = await holdOneGpu(c);
    try {
      let gpu;
      for (let i = 0; i < 100; i++) {
        gpu = (await read()).pools.find((p) => p.name === 'gpu')!;
        if (gpu.available.gpu < 2) break;
        await new Promise((r) => setTimeout(r, 100));
      }
      expect(gpu!.available).toEqual({ cpu: 1, memory: 1700 * MB, gpu: 1 });
    } finally {
      await slurmCommand(c, 'scancel', [id]);
    }
  });

  it('shows a node that goes down with its reason, and back once resumed', async () => {
    const [n1] = await nodeNames();
    await scontrol('update', `nodename=${n1}`, 'state=down', 'reason=fan failure');
    const down = await read();
    expect(down.nodes.find((n) => n.name === n1)).toMatchObject({
      state: 'down',
      reason: 'fan failure',
    });
    expect(down.pools.find((p) => p.name === 'cpu')!.capacity.cpu).toBe(2);

    await scontrol('update', `nodename=${n1}`, 'state=resume');
    const back = (await read()).nodes.find((n) => n.name === n1)!;
    expect(['idle', 'mix']).toContain(back.state);
    expect(back.reason).toBeNull();
  });

  it('shows a drained node with its reason', async () => {
    const [n1] = await nodeNames();
    await scontrol('update', `nodename=${n1}`, 'state=drain', 'reason=disk check');
    const { nodes } = await read();
    expect(nodes.find((n) => n.name === n1)).toMatchObject({
      state: 'drain',
      reason: 'disk check',
    });
    await scontrol('update', `nodename=${n1}`, 'state=resume');
  });
});
