import type { ResourcePlace } from '@orrery/contract';
import { and, eq, inArray, or } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { bucketCredentialBuckets, bucketCredentials, buckets, users } from '../../db/schema.js';

export type BucketRow = typeof buckets.$inferSelect;
export interface BucketView extends BucketRow {
  owner: string | null;
}
export type CredentialsRow = typeof bucketCredentials.$inferSelect;
export interface CredentialsView extends CredentialsRow {
  owner: string | null;
  bucketIds: string[];
}
/** Where the resource lives (the contract's one shape for it). */
export type ProjectPlace = ResourcePlace;

const selectBuckets = (db: Db) =>
  db
    .select({ bucket: buckets, owner: users.username })
    .from(buckets)
    .leftJoin(users, eq(users.id, buckets.ownerId));
const asBucket = (r: { bucket: BucketRow; owner: string | null }): BucketView => ({
  ...r.bucket,
  owner: r.owner,
});
const bucketsInPlace = (p: ProjectPlace) =>
  and(
    eq(buckets.clusterName, p.cluster),
    eq(buckets.orgName, p.org),
    eq(buckets.projectName, p.project),
  );

export async function bucketsIn(db: Db, p: ProjectPlace, ownerName?: string) {
  const rows = await selectBuckets(db)
    .where(and(bucketsInPlace(p), ownerName ? eq(users.username, ownerName) : undefined))
    .orderBy(buckets.createdAt, buckets.id);
  return rows.map(asBucket);
}

/** A bucket by id or name; an id wins over a name that happens to equal it. */
export async function bucketByIdOrName(db: Db, p: ProjectPlace, idOrName: string) {
  const rows = await selectBuckets(db).where(
    and(bucketsInPlace(p), or(eq(buckets.id, idOrName), eq(buckets.name, idOrName))),
  );
  const row = rows.find((r) => r.bucket.id === idOrName) ?? rows[0];
  return row ? asBucket(row) : null;
}

export async function bucketsByIds(db: Db, ids: string[]) {
  if (!ids.length) return [];
  return (await selectBuckets(db).where(inArray(buckets.id, ids))).map(asBucket);
}

export async function insertBucket(db: Db, values: typeof buckets.$inferInsert) {
  const inserted = await db.insert(buckets).values(values).onConflictDoNothing().returning();
  return inserted[0] ?? null;
}

export const deleteBucketRow = (db: Db, id: string) => db.delete(buckets).where(eq(buckets.id, id));

const credentialsInPlace = (p: ProjectPlace) =>
  and(
    eq(bucketCredentials.clusterName, p.cluster),
    eq(bucketCredentials.orgName, p.org),
    eq(bucketCredentials.projectName, p.project),
  );

async function withBucketIds(
  db: Db,
  rows: { credentials: CredentialsRow; owner: string | null }[],
): Promise<CredentialsView[]> {
  const ids = rows.map((r) => r.credentials.id);
  const links = ids.length
    ? await db
        .select()
        .from(bucketCredentialBuckets)
        .where(inArray(bucketCredentialBuckets.credentialId, ids))
        .orderBy(bucketCredentialBuckets.bucketId)
    : [];
  return rows.map((r) => ({
    ...r.credentials,
    owner: r.owner,
    bucketIds: links.filter((l) => l.credentialId === r.credentials.id).map((l) => l.bucketId),
  }));
}

const selectCredentials = (db: Db) =>
  db
    .select({ credentials: bucketCredentials, owner: users.username })
    .from(bucketCredentials)
    .leftJoin(users, eq(users.id, bucketCredentials.ownerId));

export async function credentialsIn(db: Db, p: ProjectPlace) {
  const rows = await selectCredentials(db)
    .where(credentialsInPlace(p))
    .orderBy(bucketCredentials.createdAt, bucketCredentials.id);
  return withBucketIds(db, rows);
}

export async function credentialsByIdOrName(db: Db, p: ProjectPlace, idOrName: string) {
  const rows = await selectCredentials(db).where(
    and(
      credentialsInPlace(p),
      or(eq(bucketCredentials.id, idOrName), eq(bucketCredentials.name, idOrName)),
    ),
  );
  const row = rows.find((r) => r.credentials.id === idOrName) ?? rows[0];
  return row ? (await withBucketIds(db, [row]))[0] : null;
}

/** Inserts credentials and their buckets at once; null when the name is taken. */
export async function insertCredentials(
  db: Db,
  values: typeof bucketCredentials.$inferInsert,
  bucketIds: string[],
) {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .insert(bucketCredentials)
      .values(values)
      .onConflictDoNothing()
      .returning();
    if (!row) return null;
    await tx
      .insert(bucketCredentialBuckets)
      .values(bucketIds.map((bucketId) => ({ credentialId: row.id, bucketId })));
    return row;
  });
}

export const deleteCredentialsRow = (db: Db, id: string) =>
  db.delete(bucketCredentials).where(eq(bucketCredentials.id, id));

/** Credentials by id alone: an S3 access key id names them, wherever they belong. */
export async function credentialsById(db: Db, id: string) {
  const rows = await selectCredentials(db).where(eq(bucketCredentials.id, id));
  return rows.length ? (await withBucketIds(db, rows))[0] : null;
}
