import { PAYMENTS_TEXTS, type TestCheckout } from '@orrery/contract';
import type { Db } from '../../db/client.js';
import { conflict } from '../../http/errors.js';
import { creditPurchase, returnUrl } from './purchases.js';
import {
  closeTestCheckout,
  insertTestCheckout,
  testCheckoutById,
  testCheckoutStatus,
  type CheckoutRow,
} from './store-payments.js';
import type { CheckoutRequest } from './stripe.js';

/**
 * Orrery's own checkout (ORRERY_PAYMENTS=test), in which no money moves: the console page
 * `/billing/checkout/{id}` shows it, and paying credits through the same path as a paid Stripe
 * session.
 */

type Row = CheckoutRow;

export async function createTestCheckout(
  db: Db,
  publicUrl: string,
  r: CheckoutRequest,
): Promise<string> {
  const id = await insertTestCheckout(db, {
    orgName: r.org,
    credits: r.credits,
    successUrl: r.successUrl,
    cancelUrl: r.cancelUrl,
    userId: r.userId,
  });
  return `${publicUrl}/billing/checkout/${id}`;
}

export const findTestCheckout = (db: Db, id: string) => testCheckoutById(db, id);

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
    const opened = await closeTestCheckout(tx, row.id, 'paid');
    if (opened) {
      await creditPurchase(tx, {
        sessionId: row.id,
        org: row.orgName,
        credits: row.credits,
        provider: 'test',
        userId,
      });
    } else {
      const now = await testCheckoutStatus(tx, row.id);
      if (now !== 'paid') throw conflict(PAYMENTS_TEXTS.checkoutClosed(now));
    }
    return returnUrl(row.successUrl, { credits: row.credits });
  });
}

export async function cancelTestCheckout(db: Db, row: Row): Promise<string> {
  const cancelled = await closeTestCheckout(db, row.id, 'cancelled');
  if (!cancelled && (await testCheckoutStatus(db, row.id)) === 'paid') {
    throw conflict(PAYMENTS_TEXTS.checkoutClosed('paid'));
  }
  return returnUrl(row.cancelUrl, 'failure');
}
