import { and, eq } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { nodePools, presets } from '../../db/schema.js';
import {
  invalidateCatalog,
  type ClusterCatalog,
  type NodePoolRow,
  type PresetRow,
} from '../clusters/store.js';

// What a cluster offers jobs, its node pools and presets, as system administrators edit them.
// Every change drops the server's cached catalog (clusters/store.ts), which answers `GET /config`.

export const poolsOf = (db: Db, cluster: string) =>
  db.select().from(nodePools).where(eq(nodePools.clusterName, cluster));

const onePool = (cluster: string, name: string) =>
  and(eq(nodePools.clusterName, cluster), eq(nodePools.name, name));

export async function poolByName(db: Db, cluster: string, name: string) {
  const [pool] = await db.select().from(nodePools).where(onePool(cluster, name));
  return pool;
}

export async function updatePool(
  db: Db,
  catalog: ClusterCatalog,
  cluster: string,
  name: string,
  values: Partial<Pick<NodePoolRow, 'idleSize' | 'cpuMinWatts' | 'cpuMaxWatts'>>,
) {
  const [updated] = await db
    .update(nodePools)
    .set(values)
    .where(onePool(cluster, name))
    .returning();
  invalidateCatalog(catalog);
  return updated;
}

export const presetsOf = (db: Db, cluster: string) =>
  db.select().from(presets).where(eq(presets.clusterName, cluster));

const onePreset = (cluster: string, name: string) =>
  and(eq(presets.clusterName, cluster), eq(presets.name, name));

export async function presetByName(
  db: Db,
  cluster: string,
  name: string,
): Promise<PresetRow | undefined> {
  const [row] = await db.select().from(presets).where(onePreset(cluster, name));
  return row;
}

/** Adds a preset; undefined when the cluster has one of that name. */
export async function insertPreset(
  db: Db,
  catalog: ClusterCatalog,
  values: typeof presets.$inferInsert,
) {
  const [inserted] = await db.insert(presets).values(values).onConflictDoNothing().returning();
  invalidateCatalog(catalog);
  return inserted;
}

export async function updatePresetRow(
  db: Db,
  catalog: ClusterCatalog,
  cluster: string,
  name: string,
  values: typeof presets.$inferInsert,
) {
  const [updated] = await db
    .update(presets)
    .set(values)
    .where(onePreset(cluster, name))
    .returning();
  invalidateCatalog(catalog);
  return updated;
}

/** Deletes a preset; false when there was none. */
export async function deletePresetRow(
  db: Db,
  catalog: ClusterCatalog,
  cluster: string,
  name: string,
) {
  const gone = await db.delete(presets).where(onePreset(cluster, name)).returning();
  invalidateCatalog(catalog);
  return gone.length > 0;
}
