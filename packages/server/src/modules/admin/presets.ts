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
import { conflict, HttpError, notFound } from '../../http/errors.js';
import { loadClusters, type ClusterCatalog, type NodePoolRow } from '../clusters/store.js';
import { clusterByName } from './store.js';
import {
  deletePresetRow,
  insertPreset,
  poolsOf,
  presetByName,
  presetsOf,
  updatePresetRow,
} from './store-capacity.js';

type PoolGpus = Partial<Record<GpuVendor, { count: number; model?: string; memory?: number }>>;

export const poolCapacity = (p: NodePoolRow): PoolCapacity => ({
  name: p.name,
  cpu: p.cpu,
  memory: p.memory,
  isPreemptible: p.isPreemptible,
  gpus: (p.gpus ?? {}) as PoolGpus,
});

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

/** A cluster's presets, smallest first; 404 for an unknown cluster. */
export async function clusterPresets(db: Db, cluster: string) {
  await clusterByName(db, cluster);
  return (await presetsOf(db, cluster)).sort((a, b) => a.cpu - b.cpu || a.memory - b.memory);
}

/** One preset of a cluster; 404 when there is none. */
export async function presetOf(db: Db, cluster: string, name: string) {
  const row = await presetByName(db, cluster, name);
  if (!row) throw notFound(`Preset ${name} not found`);
  return row;
}

/** A cluster with its pools and presets as a change leaves them. */
export const loadedCluster = async (catalog: ClusterCatalog, cluster: string) =>
  (await loadClusters(catalog, [cluster]))[0]!;

/** Adds a preset to a cluster; 404 for an unknown cluster, 409 for a name it has. */
export async function createPreset(
  db: Db,
  catalog: ClusterCatalog,
  cluster: string,
  input: PresetInput,
) {
  await clusterByName(db, cluster);
  const values = await checkedPreset(db, cluster, input);
  const inserted = await insertPreset(db, catalog, values);
  if (!inserted) throw taken();
  return inserted;
}

export async function updatePreset(
  db: Db,
  catalog: ClusterCatalog,
  cluster: string,
  name: string,
  input: PresetInput,
) {
  const current = await presetByName(db, cluster, name);
  if (!current) throw notFound(`Preset ${name} not found`);
  const values = await checkedPreset(db, cluster, input);
  if (input.name !== name && (await presetByName(db, cluster, input.name))) throw taken();
  return updatePresetRow(db, catalog, cluster, name, values);
}

export async function deletePreset(db: Db, catalog: ClusterCatalog, cluster: string, name: string) {
  if (!(await deletePresetRow(db, catalog, cluster, name)))
    throw notFound(`Preset ${name} not found`);
}
