import type { ResourcePlace } from '@orrery/contract';
import { and, eq } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { secrets, users } from '../../db/schema.js';

/** Where the resource lives (the contract's one shape for it). */
export type SecretPlace = ResourcePlace;

export interface SecretRow {
  key: string;
  sealed: string;
  /** Username of the creator; null once their account is gone. */
  owner: string | null;
}

const inPlace = (p: SecretPlace) =>
  and(
    eq(secrets.clusterName, p.cluster),
    eq(secrets.orgName, p.org),
    eq(secrets.projectName, p.project),
  );

const columns = { key: secrets.key, sealed: secrets.sealed, owner: users.username };

export async function secretsIn(db: Db, p: SecretPlace): Promise<SecretRow[]> {
  return db
    .select(columns)
    .from(secrets)
    .leftJoin(users, eq(users.id, secrets.ownerId))
    .where(inPlace(p))
    .orderBy(secrets.key);
}

export async function secretByKey(db: Db, p: SecretPlace, key: string): Promise<SecretRow | null> {
  const [row] = await db
    .select(columns)
    .from(secrets)
    .leftJoin(users, eq(users.id, secrets.ownerId))
    .where(and(inPlace(p), eq(secrets.key, key)));
  return row ?? null;
}

/** Inserts a secret; false when the key is taken (creation never overwrites). */
export async function insertSecret(
  db: Db,
  p: SecretPlace,
  row: { key: string; sealed: string; ownerId: string },
): Promise<boolean> {
  const inserted = await db
    .insert(secrets)
    .values({
      clusterName: p.cluster,
      orgName: p.org,
      projectName: p.project,
      key: row.key,
      sealed: row.sealed,
      ownerId: row.ownerId,
    })
    .onConflictDoNothing()
    .returning({ key: secrets.key });
  return inserted.length > 0;
}

export async function deleteSecret(db: Db, p: SecretPlace, key: string): Promise<boolean> {
  const deleted = await db
    .delete(secrets)
    .where(and(inPlace(p), eq(secrets.key, key)))
    .returning({ key: secrets.key });
  return deleted.length > 0;
}
