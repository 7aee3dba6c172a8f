import { and, eq } from 'drizzle-orm';
import { PAYMENTS_TEXTS, type TestCheckout } from '@orrery/contract';
import type { Db } from '../../db/client.js';
import { conflict } from '../../http/errors.js';
import { creditPurchase, returnUrl } from './purchases.js';
import { testCheckouts } from './tables.js';
import type { CheckoutRequest } from './stripe.js';

/**
 * Orrery's own checkout (ORRERY_PAYMENTS=test), in which no money moves: the console page
 * `/billing/checkout/{id}` shows it, and paying credits through the same path as a paid Stripe
 * session.
 */

type Row = typeof testCheckouts.$inferSelect;

export async function createTestCheckout(
  db: Db,
  publicUrl: string,
  r: CheckoutRequest,
): Promise<string> {
  const [row] = await db
    .insert(testCheckouts)
    .values({
      orgName: r.org,
      credits: r.credits,
      successUrl: r.successUrl,
      cancelUrl: r.cancelUrl,
      userId: r.userId,
    })
    .returning({ id: testCheckouts.id });
  return `${publicUrl}/billing/checkout/${row.id}`;
}

export async function findTestCheckout(db: Db, id: string): Promise<Row | undefined> {
  const [row] = await db.select().from(testCheckouts).where(eq(testCheckouts.id, id));
  return row;
}

export const checkoutWire = (r: Row): TestCheckout => ({
  id: r.id,
  org_name: r.orgName,
  credits: r.credits,
  status: r.status as TestCheckout['status'],
  success_url: r.successUrl,
  cancel_url: r.cancelUrl,
  test: true,
});

/**
 * Pays an open checkout once. Paying it again (a second click, a reload) answers the same
 * success address and credits nothing more; a cancelled one cannot be paid.
 */
export async function payTestCheckout(db: Db, row: Row, userId: string): Promise<string> {
  return db.transaction(async (tx) => {
    const [opened] = await tx
      .update(testCheckouts)
      .set({ status: 'paid' })
      .where(and(eq(testCheckouts.id, row.id), eq(testCheckouts.status, 'open')))
      .returning();
    if (opened) {
      await creditPurchase(tx, {
        sessionId: row.id,
        org: row.orgName,
        credits: row.credits,
        provider: 'test',
        userId,
      });
    } else {
      const now = await statusOf(tx, row.id);
      if (now !== 'paid') throw conflict(PAYMENTS_TEXTS.checkoutClosed(now));
    }
    return returnUrl(row.successUrl, { credits: row.credits });
  });
}

export async function cancelTestCheckout(db: Db, row: Row): Promise<string> {
  const [cancelled] = await db
    .update(testCheckouts)
    .set({ status: 'cancelled' })
    .where(and(eq(testCheckouts.id, row.id), eq(testCheckouts.status, 'open')))
    .returning();
  if (!cancelled && (await statusOf(db, row.id)) === 'paid') {
    throw conflict(PAYMENTS_TEXTS.checkoutClosed('paid'));
  }
  return returnUrl(row.cancelUrl, 'failure');
}

async function statusOf(tx: Pick<Db, 'select'>, id: string) {
  const [r] = await tx
    .select({ status: testCheckouts.status })
    .from(testCheckouts)
    .where(eq(testCheckouts.id, id));
  return r?.status ?? 'gone';
}
