import type { NodePoolStatusWire, PoolSamplesQuery, PoolUtilisation } from '@orrery/contract';
import type { Db } from '../../db/client.js';
import { clusterNames } from '../clusters/store.js';
import { runEvery, type LoopHost } from './periodic.js';
import { insertPoolSamples, poolSampleRows } from './store-samples.js';

/** Each node pool's use is recorded once per five minutes. */
export const POOL_SAMPLE_MS = 5 * 60_000;
/** A chart reads at most this many points a pool: longer periods average wider steps. */
export const MAX_POINTS = 300;

const gpus = (r: { nvidia_gpu: number; amd_gpu: number; intel_gpu: number }) =>
  r.nvidia_gpu + r.amd_gpu + r.intel_gpu;

/**
 * A cluster's node pools, their capacity and what jobs take of it: the admin area's view, handed
 * in by app.ts (billing is below admin and jobs, and imports neither).
 */
export type PoolsOf = (cluster: string) => Promise<NodePoolStatusWire[]>;

/**
 * Records every cluster's node pools for the five minutes that hold `now`: what the jobs holding
 * resources take (as the admin area's nodes tab counts it) against the pool's capacity. A row
 * already there (another replica, a restart) stays. Returns how many rows were written.
 */
export async function samplePools(db: Db, poolsOf: PoolsOf, now = new Date()) {
  const at = new Date(Math.floor(now.getTime() / POOL_SAMPLE_MS) * POOL_SAMPLE_MS);
  let written = 0;
  for (const name of await clusterNames(db)) {
    const pools = await poolsOf(name);
    if (!pools.length) continue;
    written += await insertPoolSamples(
      db,
      pools.map((p) => ({
        clusterName: name,
        poolName: p.name,
        sampledAt: at,
        cpuUsed: p.used.cpu,
        cpuTotal: p.capacity.cpu,
        memoryUsed: Math.round(p.used.memory),
        memoryTotal: Math.round(p.capacity.memory),
        gpuUsed: gpus(p.used),
        gpuTotal: gpus(p.capacity),
      })),
    );
  }
  return written;
}

/** The step of a period's points: five minutes, or wider so a pool has at most MAX_POINTS. */
export function stepOf(start: Date, end: Date) {
  const span = end.getTime() - start.getTime();
  return Math.max(POOL_SAMPLE_MS, Math.ceil(span / MAX_POINTS / POOL_SAMPLE_MS) * POOL_SAMPLE_MS);
}

/** A cluster's pools over a period, averaged per step (UTC, from the Unix epoch). */
export async function poolUtilisation(db: Db, q: PoolSamplesQuery): Promise<PoolUtilisation> {
  const step = stepOf(q.start_date, q.end_date);
  const rows = await poolSampleRows(db, q.cluster_name, q.start_date, q.end_date, step / 1000);
  const pools = new Map<string, PoolUtilisation['pools'][number]>();
  for (const { pool, ...sample } of rows) {
    const p = pools.get(pool) ?? { pool_name: pool, samples: [] };
    pools.set(pool, p);
    p.samples.push(sample);
  }
  return { step: step / 1000, pools: [...pools.values()] };
}

/** Samples just after the start and every POOL_SAMPLE_MS, one sample at a time. */
export const startPoolSampler = (
  db: Db,
  poolsOf: PoolsOf,
  host: LoopHost,
  everyMs = POOL_SAMPLE_MS,
) => runEvery(() => samplePools(db, poolsOf, new Date()), everyMs, host, 'node pool sample');
