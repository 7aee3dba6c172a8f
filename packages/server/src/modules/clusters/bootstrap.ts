import { DEFAULT_CLUSTER } from '@orrery/contract';
import { execFileSync } from 'node:child_process';
import { cpus, totalmem } from 'node:os';
import { statfsSync } from 'node:fs';
import type { Db } from '../../db/client.js';
import { clusters, nodePools, presets } from '../../db/schema.js';

const GB = 10 ** 9;

/** NVIDIA GPUs of this machine, if `nvidia-smi` is there to tell. */
function detectNvidia(): { count: number; model: string; memory: number } | undefined {
  try {
    const out = execFileSync(
      'nvidia-smi',
      ['--query-gpu=name,memory.total', '--format=csv,noheader,nounits'],
      {
        encoding: 'utf8',
        timeout: 3000,
        stdio: ['ignore', 'pipe', 'ignore'],
      },
    ).trim();
    const lines = out.split('\n').filter(Boolean);
    if (lines.length === 0) return undefined;
    const [model, mib] = lines[0].split(',').map((s) => s.trim());
    return { count: lines.length, model, memory: Number(mib) * 2 ** 20 };
  } catch {
    return undefined;
  }
}

/** What this machine offers, as one node pool of one node. */
export function describeMachine(dataDir: string) {
  let disk = 100 * GB;
  try {
    const s = statfsSync(dataDir);
    disk = s.blocks * s.bsize;
  } catch {
    /* the data dir may not exist yet in tests; keep the nominal size */
  }
  return { cpu: cpus().length, memory: totalmem(), disk, nvidia: detectNvidia() };
}

/** A node pool of the first start: this machine, or the partitions of a cluster runtime. */
export interface FirstPool {
  name: string;
  nodes: number;
  /** One node's shape. */
  cpu: number;
  memory: number;
  disk: number;
  nvidia?: { count: number; model: string; memory?: number };
}

/** This machine as one pool of one node: what the process and docker runtimes run on. */
export function machinePool(dataDir: string): FirstPool {
  const m = describeMachine(dataDir);
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
  pools: () => Promise<FirstPool[]> = async () => [machinePool(dataDir)],
  location = 'This machine',
) {
  const existing = await db.select({ name: clusters.name }).from(clusters);
  if (existing.length > 0) return;
  const described = await pools();
  const all = described.length > 0 ? described : [machinePool(dataDir)];
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
