// The admin Nodes tab's data on a server whose runtime is the test Slurm cluster: pools named like
// partitions get Slurm's capacity and nodes, and a node set down shows down with its reason.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { nodePools, presets } from '../../db/schema.js';
import { startTestServer, type TestServer, type TestUser } from '../../test/harness.js';
import { call } from '../../test/fixtures.js';
import { describeSlurm, slurmCommand } from '../../test/slurm-cluster.js';

const POOLS = '/apis/admin/v1/clusters/default/node_pools';

describeSlurm('admin node pools on Slurm', (c) => {
  let s: TestServer;
  let admin: TestUser;
  let node: string;
  beforeAll(async () => {
    s = await startTestServer({
      ORRERY_RUNTIME: 'slurm',
      ORRERY_SLURM_API: 'commands',
      ORRERY_SLURM_CONF: c.conf,
      ORRERY_SLURM_USER: c.user,
      ORRERY_SLURM_SHARED_DIR: c.sharedDir,
    });
    admin = await s.user({ systemRole: 'admin' });
    node = (await slurmCommand(c, 'sinfo', ['-h', '-N', '-p', 'cpu', '-o', '%N'])).split('\n')[0]!;
  });
  afterAll(async () => {
    await slurmCommand(c, 'scontrol', ['update', `nodename=${node}`, 'state=resume']).catch(
      () => '',
    );
    await s?.stop();
  });

  const pools = async () => {
    const r = await call(s, 'GET', POOLS, admin);
    expect(r.status).toBe(200);
    return r.body as Array<{
      name: string;
      capacity: { cpu: number; nvidia_gpu: number };
      nodes?: Array<{ name: string; state: string; reason: string | null }>;
    }>;
  };

  it('makes a node pool of each partition on a first start, and presets on them', async () => {
    const rows = await s.ctx.db.select().from(nodePools).orderBy(nodePools.name);
    expect(rows.map((r) => [r.name, r.maxSize, r.cpu, r.gpus])).toEqual([
      ['cpu', 2, 2, {}],
      ['gpu', 1, 2, { nvidia: { count: 2, model: 'fake' } }],
    ]);
    const byName = Object.fromEntries(
      (await s.ctx.db.select().from(presets)).map((p) => [p.name, p.resourcePoolNames]),
    );
    expect(byName).toEqual({
      'cpu-small': ['cpu'],
      'cpu-medium': ['cpu'],
      'cpu-large': ['cpu'],
      'gpu-small': ['gpu'],
    });
  });

  it('answers with the partitions’ capacity and nodes', async () => {
    // A partition without a pool row is still listed, as Slurm describes it.
    await s.ctx.db.delete(nodePools).where(eq(nodePools.name, 'gpu'));
    const gpu = (await pools()).find((p) => p.name === 'gpu')!;
    expect(gpu.capacity).toMatchObject({ cpu: 2, nvidia_gpu: 2 });
    expect(gpu).toMatchObject({ min_size: 1, max_size: 1, cpu: 2 });
    expect(gpu.nodes).toHaveLength(1);
  });

  it('shows a node that goes down with its reason, and back once resumed', async () => {
    await slurmCommand(c, 'scontrol', [
      'update',
      `nodename=${node}`,
      'state=down',
      'reason=power supply',
    ]);
    // slurmctld applies the update at once, but another file's node test may still be settling.
    const nodeNow = async () =>
      (await pools()).find((p) => p.name === 'cpu')!.nodes!.find((n) => n.name === node);
    await expect
      .poll(nodeNow, { timeout: 10_000 })
      .toEqual({ name: node, state: 'down', reason: 'power supply' });
    await slurmCommand(c, 'scontrol', ['update', `nodename=${node}`, 'state=resume']);
    const back = (await pools()).find((p) => p.name === 'cpu')!.nodes!.find((n) => n.name === node);
    expect(back?.reason).toBeNull();
  });
});
