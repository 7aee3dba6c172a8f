import { DEFAULT_CLUSTER } from '@orrery/contract';
import type { Db } from '../../db/client.js';
import type { RuntimeDriver } from '../../runtime/driver.js';
import { loadClusters, type ClusterCatalog } from '../clusters/store.js';
import { updateJob, type JobRow } from './store.js';

/**
 * How many more jobs of each of the default cluster's presets fit now, summed over the runtime's
 * pools (`apolo config show`).
 */
export async function presetCapacity(
  catalog: ClusterCatalog,
  driver: Pick<RuntimeDriver, 'capacity'>,
) {
  const pools = await driver.capacity();
  const [cluster] = await loadClusters(catalog, [DEFAULT_CLUSTER]);
  const out: Record<string, number> = {};
  for (const p of cluster?.presets ?? []) {
    out[p.name] = pools.reduce(
      (n, pool) =>
        n +
        Math.floor(
          Math.min(
            pool.availableCpu / p.cpu,
            p.memory > 0 ? pool.availableMemory / p.memory : Infinity,
          ),
        ),
      0,
    );
  }
  return out;
}

/** Records that the job's logs were removed: the job stays, its logs are no longer offered. */
export const markLogsRemoved = (db: Db, j: JobRow) => updateJob(db, j.id, { logsRemoved: true });
