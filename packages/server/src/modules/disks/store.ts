import type { DiskStatus, ResourcePlace } from '@orrery/contract';
import { and, eq, isNotNull, max, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { disks, nodePools, users } from '../../db/schema.js';

export type DiskRow = typeof disks.$inferSelect;
export interface DiskView extends DiskRow {
  owner: string | null;
}
/** Where the resource lives (the contract's one shape for it). */
export type ProjectPlace = ResourcePlace;

const selectViews = (db: Db) =>
  db
    .select({ disk: disks, owner: users.username })
    .from(disks)
    .leftJoin(users, eq(users.id, disks.ownerId));
const asView = (r: { disk: DiskRow; owner: string | null }): DiskView => ({
  ...r.disk,
  owner: r.owner,
});
const inPlace = (p: ProjectPlace) =>
  and(eq(disks.clusterName, p.cluster), eq(disks.orgName, p.org), eq(disks.projectName, p.project));

export async function disksIn(db: Db, p: ProjectPlace, ownerName?: string) {
  const rows = await selectViews(db)
    .where(and(inPlace(p), ownerName ? eq(users.username, ownerName) : undefined))
    .orderBy(disks.createdAt, disks.id);
  return rows.map(asView);
}

export async function diskById(db: Db, id: string): Promise<DiskView | null> {
  const [row] = await selectViews(db).where(eq(disks.id, id));
  return row ? asView(row) : null;
}

/** The CLI addresses a disk by id or by name; an id wins over a name that happens to equal it. */
export async function diskByIdOrName(db: Db, p: ProjectPlace, idOrName: string) {
  const rows = await selectViews(db).where(
    and(inPlace(p), or(eq(disks.id, idOrName), eq(disks.name, idOrName))),
  );
  const row = rows.find((r) => r.disk.id === idOrName) ?? rows[0];
  return row ? asView(row) : null;
}

export async function insertDisk(db: Db, values: typeof disks.$inferInsert) {
  // Without a target, ON CONFLICT also covers the partial unique index on the name.
  const inserted = await db.insert(disks).values(values).onConflictDoNothing().returning();
  return inserted[0] ?? null;
}

export const setDiskStatus = (db: Db, id: string, status: DiskStatus) =>
  db.update(disks).set({ status }).where(eq(disks.id, id));
export const setUsedBytes = (db: Db, id: string, usedBytes: number) =>
  db.update(disks).set({ usedBytes }).where(eq(disks.id, id));
export const setLastUsage = (db: Db, id: string, at: Date) =>
  db.update(disks).set({ lastUsage: at }).where(eq(disks.id, id));
export const deleteDiskRow = (db: Db, id: string) => db.delete(disks).where(eq(disks.id, id));

/** Disks whose lifespan has passed since they were last used (or created, if never used). */
export async function expiredDisks(db: Db, now: Date) {
  return db
    .select()
    .from(disks)
    .where(
      and(
        isNotNull(disks.lifeSpan),
        sql`coalesce(${disks.lastUsage}, ${disks.createdAt}) + ${disks.lifeSpan} * interval '1 second' <= ${now.toISOString()}::timestamptz`,
      ),
    );
}

/** The largest disk a node of the cluster has: a disk must fit on one node. */
export async function maxDiskSize(db: Db, cluster: string): Promise<number | null> {
  const [row] = await db
    .select({ size: max(nodePools.diskSize) })
    .from(nodePools)
    .where(eq(nodePools.clusterName, cluster));
  return row?.size ?? null;
}
