import { asc, eq, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { users } from '../../db/schema.js';

export type UserRow = typeof users.$inferSelect;

export async function userByUsername(db: Db, username: string): Promise<UserRow | null> {
  const [row] = await db.select().from(users).where(eq(users.username, username));
  return row ?? null;
}

export async function userByEmail(db: Db, email: string): Promise<UserRow | null> {
  const [row] = await db
    .select()
    .from(users)
    .where(eq(sql`lower(${users.email})`, email.toLowerCase()));
  return row ?? null;
}

export async function userById(db: Db, id: string): Promise<UserRow | null> {
  const [row] = await db.select().from(users).where(eq(users.id, id));
  return row ?? null;
}

export async function insertUser(db: Db, values: typeof users.$inferInsert): Promise<UserRow> {
  const [row] = await db.insert(users).values(values).returning();
  return row;
}

/** Changes a user's columns; the row as it is now. */
export async function updateUser(
  db: Db,
  id: string,
  changes: Partial<typeof users.$inferInsert>,
): Promise<UserRow> {
  const [row] = await db.update(users).set(changes).where(eq(users.id, id)).returning();
  return row;
}

export const allUsers = (db: Db) => db.select().from(users).orderBy(asc(users.username));

/**
 * Users whose name, any word of their full name, or e-mail starts with `prefix` (lower case,
 * `like` wildcards escaped), by user name, at most `limit`.
 */
export function usersStartingWith(db: Db, prefix: string, limit: number) {
  const q = `${prefix}%`;
  const word = `% ${prefix}%`;
  return db
    .select()
    .from(users)
    .where(
      or(
        sql`lower(${users.username}) like ${q}`,
        sql`lower(${users.name}) like ${q}`,
        sql`lower(${users.name}) like ${word}`,
        sql`lower(${users.email}) like ${q}`,
      ),
    )
    .orderBy(asc(users.username))
    .limit(limit);
}

export async function deleteUser(db: Db, id: string) {
  await db.delete(users).where(eq(users.id, id));
}
