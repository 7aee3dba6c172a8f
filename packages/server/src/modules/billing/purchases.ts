import { BUY_CREDITS_STATUS, CENTS_PER_CREDIT } from '@orrery/contract';
import { changeBalance } from './store-ledger.js';
import { insertPurchase } from './store-payments.js';

type Tx = Parameters<typeof changeBalance>[0];

export interface Purchase {
  /** A Stripe Checkout Session id, or a test checkout's id: credited at most once. */
  sessionId: string;
  org: string;
  credits: number;
  provider: 'stripe' | 'test';
  userId?: string | null;
}

/**
 * The one path by which bought credits reach a balance, for Stripe and the test checkout alike:
 * the purchase row keyed on the session and the ledger entry, in the caller's transaction.
 * Returns false when the session was already credited (a replay, a second event type).
 */
export async function creditPurchase(tx: Tx, p: Purchase): Promise<boolean> {
  const fresh = await insertPurchase(tx, {
    sessionId: p.sessionId,
    orgName: p.org,
    credits: p.credits,
    amountInCents: p.credits * CENTS_PER_CREDIT,
    provider: p.provider,
    userId: p.userId ?? null,
  });
  if (!fresh) return false;
  await changeBalance(tx, {
    org: p.org,
    kind: 'purchase',
    credits: String(p.credits),
    userId: p.userId ?? null,
    reference: p.sessionId,
  });
  return true;
}

/** The buyer's URL with the return query the console reads, its own query kept. */
export function returnUrl(base: string, outcome: { credits: number } | 'failure'): string {
  const url = new URL(base);
  url.searchParams.set(BUY_CREDITS_STATUS, outcome === 'failure' ? 'failure' : 'success');
  if (outcome !== 'failure') url.searchParams.set('credits', String(outcome.credits));
  return url.toString();
}
