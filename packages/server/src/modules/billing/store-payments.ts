import { and, eq } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { purchases, stripeEvents, testCheckouts } from './tables.js';

// Buying credits: the test checkouts, the purchases credited, the Stripe events handled.

export type CheckoutRow = typeof testCheckouts.$inferSelect;

export async function insertTestCheckout(
  db: Db,
  values: Pick<
    typeof testCheckouts.$inferInsert,
    'orgName' | 'credits' | 'successUrl' | 'cancelUrl' | 'userId'
  >,
) {
  const [row] = await db.insert(testCheckouts).values(values).returning({ id: testCheckouts.id });
  return row.id;
}

export async function testCheckoutById(db: Db, id: string): Promise<CheckoutRow | undefined> {
  const [row] = await db.select().from(testCheckouts).where(eq(testCheckouts.id, id));
  return row;
}

/** Closes an open checkout as paid or cancelled; undefined when it was not open. */
export async function closeTestCheckout(
  tx: Pick<Db, 'update'>,
  id: string,
  status: 'paid' | 'cancelled',
) {
  const [closed] = await tx
    .update(testCheckouts)
    .set({ status })
    .where(and(eq(testCheckouts.id, id), eq(testCheckouts.status, 'open')))
    .returning();
  return closed;
}

/** A checkout's status, 'gone' when there is none. */
export async function testCheckoutStatus(tx: Pick<Db, 'select'>, id: string) {
  const [r] = await tx
    .select({ status: testCheckouts.status })
    .from(testCheckouts)
    .where(eq(testCheckouts.id, id));
  return r?.status ?? 'gone';
}

/** Records a purchase keyed on its session; false when that session was recorded already. */
export async function insertPurchase(
  tx: Pick<Db, 'insert'>,
  values: typeof purchases.$inferInsert,
): Promise<boolean> {
  const fresh = await tx
    .insert(purchases)
    .values(values)
    .onConflictDoNothing()
    .returning({ sessionId: purchases.sessionId });
  return fresh.length > 0;
}

/** Records a Stripe event by its id; false when it was recorded already (a replay). */
export async function insertStripeEvent(
  tx: Pick<Db, 'insert'>,
  id: string,
  type: string,
): Promise<boolean> {
  const fresh = await tx
    .insert(stripeEvents)
    .values({ id, type })
    .onConflictDoNothing()
    .returning({ id: stripeEvents.id });
  return fresh.length > 0;
}
