import { desc, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { invites } from '../../db/schema.js';

export type InviteRow = typeof invites.$inferSelect;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export async function inviteById(db: Db, id: string): Promise<InviteRow | null> {
  if (!UUID.test(id)) return null;
  const [row] = await db.select().from(invites).where(eq(invites.id, id));
  return row ?? null;
}

export const invitesTo = (db: Db, email: string) =>
  db
    .select()
    .from(invites)
    .where(eq(sql`lower(${invites.email})`, email.toLowerCase()))
    .orderBy(desc(invites.createdAt));

export const invitesOf = (db: Db, org: string) =>
  db.select().from(invites).where(eq(invites.orgName, org)).orderBy(desc(invites.createdAt));

export async function deleteInvite(db: Db, id: string) {
  await db.delete(invites).where(eq(invites.id, id));
}
