import { and, desc, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { invites, orgMembers } from '../../db/schema.js';

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

/** The invitations to an address in an organization still marked pending (some may be expired). */
export const pendingInvites = (db: Db, org: string, email: string) =>
  db
    .select()
    .from(invites)
    .where(
      and(
        eq(invites.orgName, org),
        eq(sql`lower(${invites.email})`, email.toLowerCase()),
        eq(invites.status, 'pending'),
      ),
    );

export async function insertInvite(db: Db, values: typeof invites.$inferInsert) {
  const [row] = await db.insert(invites).values(values).returning();
  return row;
}

/** Changes an invitation's status (and expiry, when given); the row as it is now. */
export async function updateInvite(
  db: Db,
  id: string,
  changes: Pick<InviteRow, 'status'> & Partial<Pick<InviteRow, 'expiresAt'>>,
) {
  const [row] = await db.update(invites).set(changes).where(eq(invites.id, id)).returning();
  return row;
}

/** Adds the invitee to the organization with the invitation's role and marks it accepted. */
export function acceptInviteRow(db: Db, row: InviteRow, userId: string) {
  return db.transaction(async (tx) => {
    await tx
      .insert(orgMembers)
      .values({ orgName: row.orgName, userId, role: row.role })
      .onConflictDoNothing();
    const [updated] = await tx
      .update(invites)
      .set({ status: 'accepted' })
      .where(eq(invites.id, row.id))
      .returning();
    return updated;
  });
}
