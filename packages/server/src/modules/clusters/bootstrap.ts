import { DEFAULT_CLUSTER } from '@orrery/contract';
import { cpus, totalmem } from 'node:os';
import { statfsSync } from 'node:fs';
import type { Db } from '../../db/client.js';
import { clusters, nodePools, presets } from '../../db/schema.js';
import { machineGpus, type MachineGpus } from '../../runtime/gpus.js';

const GB = 10 ** 9;

/**
 * What this machine offers, as one node pool of one node. `gpus`: the operator's description
 * (ORRERY_GPU_DESCRIPTION), which replaces the probe of `nvidia-smi` and the device nodes.
 */
export function describeMachine(dataDir: string, gpus?: MachineGpus) {
  let disk = 100 * GB;
  try {
    const s = statfsSync(dataDir);
    disk = s.blocks * s.bsize;
  } catch {
    /* the data dir may not exist yet in tests; keep the nominal size */
  }
  const found = machineGpus(gpus);
  return { cpu: cpus().length, memory: totalmem(), disk, gpus: found, nvidia: found.nvidia };
}

/** A node pool of the first start: this machine, or the partitions of a cluster runtime. */
export interface FirstPool {
  name: string;
  nodes: number;
  /** One node's shape. */
  cpu: number;
  memory: number;
  disk: number;
  nvidia?: { count: number; model?: string; memory?: number };
}

/** This machine as one pool of one node: what the process and docker runtimes run on. */
export function machinePool(dataDir: string, gpus?: MachineGpus): FirstPool {
  const m = describeMachine(dataDir, gpus);
  return { name: 'local', nodes: 1, cpu: m.cpu, memory: m.memory, disk: m.disk, nvidia: m.nvidia };
}

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
  const existing = await db.select({ name: clusters.name }).from(clusters);
  if (existing.length > 0) return;
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
  await db.transaction(async (tx) => {
    await tx.insert(clusters).values({ name: DEFAULT_CLUSTER, location, timezone: 'UTC' });
    await tx.insert(nodePools).values(
      all.map((p) => ({
        clusterName: DEFAULT_CLUSTER,
        name: p.name,
        minSize: p.nodes,
        maxSize: p.nodes,
        idleSize: 0,
        cpu: p.cpu,
        memory: p.memory,
        diskSize: p.disk,
        gpus: p.nvidia ? { nvidia: p.nvidia } : {},
      })),
    );
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
    await tx.insert(presets).values(
      small.map((p) => ({
        ...p,
        clusterName: DEFAULT_CLUSTER,
        resourcePoolNames: forCpu.map((f) => f.name),
        gpus: {},
      })),
    );
    const gpu = gpuPools[0];
    if (gpu?.nvidia) {
      const gpuHalf = Math.floor(gpu.memory / 2);
      await tx.insert(presets).values({
        clusterName: DEFAULT_CLUSTER,
        name: 'gpu-small',
        cpu: Math.min(2, gpu.cpu),
        memory: Math.min(8 * GB, gpuHalf),
        creditsPerHour: '1',
        resourcePoolNames: gpuPools.map((f) => f.name),
        gpus: { nvidia: { count: 1, model: gpu.nvidia.model, memory: gpu.nvidia.memory } },
      });
    }
  });
}
