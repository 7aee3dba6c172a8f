import { DEFAULT_CLUSTER } from '@orrery/contract';
import type { Db } from '../../db/client.js';
import { clusterNames, insertCluster, type PresetInsert } from './store.js';
import type { MachineGpus } from '../../runtime/gpus.js';
import { GB, machinePool, type FirstPool } from '../../runtime/machine.js';

/**
 * First start: a cluster `default` with the node pools `pools` describes (asked only then) and
 * presets that fit its smallest node. Later starts leave an existing cluster as the
 * administrators shaped it.
 */
export async function bootstrapCluster(
  db: Db,
  dataDir: string,
  pools: () => Promise<FirstPool[]> = async () => [machinePool(dataDir, gpus)],
  location = 'This machine',
  gpus?: MachineGpus,
) {
  if ((await clusterNames(db)).length > 0) return;
  const described = await pools();
  const all = described.length > 0 ? described : [machinePool(dataDir, gpus)];
  const cpuPools = all.filter((p) => !p.nvidia);
  const gpuPools = all.filter((p) => p.nvidia);
  // CPU presets go where no GPU sits idle under them, unless every pool has GPUs.
  const forCpu = cpuPools.length > 0 ? cpuPools : all;
  const node = {
    cpu: Math.min(...forCpu.map((p) => p.cpu)),
    memory: Math.min(...forCpu.map((p) => p.memory)),
  };
  const poolRows = all.map((p) => ({
    clusterName: DEFAULT_CLUSTER,
    name: p.name,
    minSize: p.nodes,
    maxSize: p.nodes,
    idleSize: 0,
    cpu: p.cpu,
    memory: p.memory,
    diskSize: p.disk,
    gpus: p.nvidia ? { nvidia: p.nvidia } : {},
  }));
  const half = Math.floor(node.memory / 2);
  const small = [
    {
      name: 'cpu-small',
      cpu: Math.min(0.5, node.cpu),
      memory: Math.min(1 * GB, half),
      creditsPerHour: '0.05',
    },
    {
      name: 'cpu-medium',
      cpu: Math.min(1, node.cpu),
      memory: Math.min(2 * GB, half),
      creditsPerHour: '0.1',
    },
    { name: 'cpu-large', cpu: node.cpu, memory: half, creditsPerHour: String(0.1 * node.cpu) },
  ];
  const presetRows: PresetInsert[] = small.map((p) => ({
    ...p,
    clusterName: DEFAULT_CLUSTER,
    resourcePoolNames: forCpu.map((f) => f.name),
    gpus: {},
  }));
  const gpu = gpuPools[0];
  if (gpu?.nvidia) {
    const gpuHalf = Math.floor(gpu.memory / 2);
    presetRows.push({
      clusterName: DEFAULT_CLUSTER,
      name: 'gpu-small',
      cpu: Math.min(2, gpu.cpu),
      memory: Math.min(8 * GB, gpuHalf),
      creditsPerHour: '1',
      resourcePoolNames: gpuPools.map((f) => f.name),
      gpus: { nvidia: { count: 1, model: gpu.nvidia.model, memory: gpu.nvidia.memory } },
    });
  }
  await insertCluster(
    db,
    { name: DEFAULT_CLUSTER, location, timezone: 'UTC' },
    poolRows,
    presetRows,
  );
}
