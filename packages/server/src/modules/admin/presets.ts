import { and, eq } from 'drizzle-orm';
import {
  ADMIN_TEXTS,
  GPU_VENDORS,
  presetGpus,
  presetPoolIssues,
  fitsPool,
  type GpuVendor,
  type PoolCapacity,
  type PresetInput,
  type PresetShape,
} from '@orrery/contract';
import type { Db } from '../../db/client.js';
import { nodePools, presets } from '../../db/schema.js';
import { conflict, HttpError, notFound } from '../../http/errors.js';
import { invalidateCatalog, type NodePoolRow } from '../clusters/store.js';

type PoolGpus = Partial<Record<GpuVendor, { count: number; model?: string; memory?: number }>>;

export const poolCapacity = (p: NodePoolRow): PoolCapacity => ({
  name: p.name,
  cpu: p.cpu,
  memory: p.memory,
  isPreemptible: p.isPreemptible,
  gpus: (p.gpus ?? {}) as PoolGpus,
});

export const poolsOf = (db: Db, cluster: string) =>
  db.select().from(nodePools).where(eq(nodePools.clusterName, cluster));

/**
 * Checks a preset against the cluster's node pools with the rules shared with the console, and
 * works out the pools it may run on: the ones named, which must exist and hold it, or else every
 * pool that holds it.
 */
async function checkedPreset(db: Db, cluster: string, input: PresetInput) {
  const pools = (await poolsOf(db, cluster)).map(poolCapacity);
  const shape: PresetShape = {
    cpu: input.cpu,
    memory: input.memory,
    isPreemptible: input.preemptible_node,
    gpus: presetGpus(input),
  };
  const issues = presetPoolIssues(shape, pools);
  if (issues.length === 0 && input.resource_pool_names?.length) {
    for (const name of input.resource_pool_names) {
      const pool = pools.find((p) => p.name === name);
      if (!pool)
        issues.push({ path: 'resource_pool_names', message: ADMIN_TEXTS.poolUnknown(name) });
      else if (!fitsPool(shape, pool))
        issues.push({ path: 'resource_pool_names', message: ADMIN_TEXTS.presetNoFit });
    }
  }
  if (issues.length) throw new HttpError('validation', issues[0].message, issues);
  const poolNames = input.resource_pool_names?.length
    ? input.resource_pool_names
    : pools.filter((p) => fitsPool(shape, p)).map((p) => p.name);
  // A GPU model's memory is the pool's, so `apolo` shows it with the preset.
  const gpus: PoolGpus = {};
  for (const v of GPU_VENDORS) {
    const want = shape.gpus[v];
    if (!want || want.count === 0) continue;
    const from = pools.find((p) => poolNames.includes(p.name) && p.gpus[v])?.gpus[v] as
      { model?: string; memory?: number } | undefined;
    gpus[v] = {
      count: want.count,
      model: want.model ?? from?.model,
      ...(from?.memory ? { memory: from.memory } : {}),
    };
  }
  return {
    clusterName: cluster,
    name: input.name,
    cpu: input.cpu,
    memory: input.memory,
    creditsPerHour: input.credits_per_hour,
    isPreemptible: input.preemptible_node,
    schedulerEnabled: input.scheduler_enabled,
    gpus,
    resourcePoolNames: poolNames,
  };
}

const taken = () => conflict(ADMIN_TEXTS.presetTaken, 'name');
const one = (cluster: string, name: string) =>
  and(eq(presets.clusterName, cluster), eq(presets.name, name));

export async function createPreset(db: Db, cluster: string, input: PresetInput) {
  const values = await checkedPreset(db, cluster, input);
  const inserted = await db.insert(presets).values(values).onConflictDoNothing().returning();
  if (inserted.length === 0) throw taken();
  invalidateCatalog(db);
  return inserted[0];
}

export async function updatePreset(db: Db, cluster: string, name: string, input: PresetInput) {
  const [current] = await db.select().from(presets).where(one(cluster, name));
  if (!current) throw notFound(`Preset ${name} not found`);
  const values = await checkedPreset(db, cluster, input);
  if (input.name !== name) {
    const [clash] = await db.select().from(presets).where(one(cluster, input.name));
    if (clash) throw taken();
  }
  const [updated] = await db.update(presets).set(values).where(one(cluster, name)).returning();
  invalidateCatalog(db);
  return updated;
}

export async function deletePreset(db: Db, cluster: string, name: string) {
  const gone = await db.delete(presets).where(one(cluster, name)).returning();
  if (gone.length === 0) throw notFound(`Preset ${name} not found`);
  invalidateCatalog(db);
}
