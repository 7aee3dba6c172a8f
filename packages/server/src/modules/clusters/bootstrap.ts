import { execFileSync } from 'node:child_process';
import { cpus, totalmem } from 'node:os';
import { statfsSync } from 'node:fs';
import type { Db } from '../../db/client.js';
import { clusters, nodePools, presets } from '../../db/schema.js';

export const DEFAULT_CLUSTER = 'default';
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

/**
 * First start: a cluster `default` on the local machine, one node pool describing it and three
 * presets that fit it. Later starts leave an existing cluster as the administrators shaped it.
 */
export async function bootstrapCluster(db: Db, dataDir: string) {
  const existing = await db.select({ name: clusters.name }).from(clusters);
  if (existing.length > 0) return;
  const m = describeMachine(dataDir);
  const gpus = m.nvidia ? { nvidia: m.nvidia } : {};
  await db.transaction(async (tx) => {
    await tx
      .insert(clusters)
      .values({ name: DEFAULT_CLUSTER, location: 'This machine', timezone: 'UTC' });
    await tx.insert(nodePools).values({
      clusterName: DEFAULT_CLUSTER,
      name: 'local',
      minSize: 1,
      maxSize: 1,
      idleSize: 0,
      cpu: m.cpu,
      memory: m.memory,
      diskSize: m.disk,
      gpus,
    });
    const half = Math.floor(m.memory / 2);
    const small = [
      {
        name: 'cpu-small',
        cpu: Math.min(0.5, m.cpu),
        memory: Math.min(1 * GB, half),
        creditsPerHour: '0.05',
      },
      {
        name: 'cpu-medium',
        cpu: Math.min(1, m.cpu),
        memory: Math.min(2 * GB, half),
        creditsPerHour: '0.1',
      },
      { name: 'cpu-large', cpu: m.cpu, memory: half, creditsPerHour: String(0.1 * m.cpu) },
    ];
    await tx.insert(presets).values(
      small.map((p) => ({
        ...p,
        clusterName: DEFAULT_CLUSTER,
        resourcePoolNames: ['local'],
        gpus: {},
      })),
    );
    if (m.nvidia) {
      await tx.insert(presets).values({
        clusterName: DEFAULT_CLUSTER,
        name: 'gpu-small',
        cpu: Math.min(2, m.cpu),
        memory: Math.min(8 * GB, half),
        creditsPerHour: '1',
        resourcePoolNames: ['local'],
        gpus: { nvidia: { count: 1, model: m.nvidia.model, memory: m.nvidia.memory } },
      });
    }
  });
}
