import { randomUUID } from 'node:crypto';
import Stripe from 'stripe';
import { CENTS_PER_CREDIT, PAYMENTS_TEXTS } from '@orrery/contract';
import type { Payments } from '../../config.js';
import type { Db } from '../../db/client.js';
import { orgExists } from '../orgs/store.js';
import { userById } from '../users/store.js';
import { HttpError } from '../../http/errors.js';
import { creditPurchase, returnUrl } from './purchases.js';
import { insertStripeEvent } from './store-payments.js';

type StripeSettings = NonNullable<Payments['stripe']>;

/** The official SDK, pointed at another API address when one is set (stripe-mock, tests). */
export function stripeClient(s: StripeSettings): Stripe {
  const api = s.apiUrl ? new URL(s.apiUrl) : null;
  return new Stripe(s.secretKey, {
    ...(api
      ? {
          host: api.hostname,
          port: Number(api.port) || (api.protocol === 'https:' ? 443 : 80),
          protocol: api.protocol === 'https:' ? 'https' : 'http',
        }
      : {}),
    telemetry: false,
    appInfo: { name: 'Orrery' },
  });
}

export interface CheckoutRequest {
  org: string;
  credits: number;
  successUrl: string;
  cancelUrl: string;
  userId: string;
}

/** A Checkout Session for the credits; its hosted page is where the browser goes. */
export async function createStripeCheckout(
  stripe: Stripe,
  r: CheckoutRequest,
  warn: (msg: string) => void,
): Promise<string> {
  try {
    const session = await stripe.checkout.sessions.create(
      {
        mode: 'payment',
        line_items: [
          {
            quantity: r.credits,
            price_data: {
              currency: 'usd',
              unit_amount: CENTS_PER_CREDIT,
              product_data: { name: `Credits for organization ${r.org}` },
            },
          },
        ],
        // What the webhook credits: read back from the signed event, never from the browser.
        metadata: { org_name: r.org, credits: String(r.credits), user_id: r.userId },
        client_reference_id: r.org,
        success_url: returnUrl(r.successUrl, { credits: r.credits }),
        cancel_url: returnUrl(r.cancelUrl, 'failure'),
      },
      // The SDK retries a request that timed out; the key makes Stripe answer the same session.
      { idempotencyKey: `orrery-buy-${randomUUID()}` },
    );
    if (!session.url) throw new Error('the session has no checkout URL');
    return session.url;
  } catch (e) {
    warn(`Stripe did not open a checkout for ${r.org}: ${(e as Error).message}`);
    // Stripe's refusal of the request is the buyer's to read; a bad key or no answer is the
    // operator's business (its message even shows part of the key).
    const theirs = e instanceof Stripe.errors.StripeInvalidRequestError;
    throw new HttpError(
      'unprocessable',
      theirs
        ? `Stripe did not open a checkout: ${(e as Error).message}`
        : PAYMENTS_TEXTS.providerDown,
    );
  }
}

/** Events that mean a session was paid; `completed` also comes for a payment still pending. */
const PAID_EVENTS = new Set([
  'checkout.session.completed',
  'checkout.session.async_payment_succeeded',
]);

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export type EventOutcome = 'credited' | 'duplicate' | 'ignored';

/**
 * Handles a verified event once: its id is recorded in the transaction that credits, so a
 * replayed event changes nothing, and the credit is keyed on the session, so a second event type
 * about the same session adds nothing either.
 */
export async function handleStripeEvent(
  db: Db,
  event: Stripe.Event,
  warn: (msg: string) => void,
): Promise<EventOutcome> {
  return db.transaction(async (tx) => {
    if (!(await insertStripeEvent(tx, event.id, event.type))) return 'duplicate';
    if (!PAID_EVENTS.has(event.type)) return 'ignored';
    const session = event.data.object as Stripe.Checkout.Session;
    if (session.payment_status !== 'paid') return 'ignored';
    const org = session.metadata?.org_name ?? '';
    const credits = Number(session.metadata?.credits);
    if (
      !Number.isInteger(credits) ||
      credits <= 0 ||
      session.amount_total !== credits * CENTS_PER_CREDIT
    ) {
      warn(
        `Stripe session ${session.id}: paid ${session.amount_total} cents for ${credits} credits; not credited`,
      );
      return 'ignored';
    }
    if (!(await orgExists(tx, org))) {
      warn(`Stripe session ${session.id}: organization ${org} no longer exists; not credited`);
      return 'ignored';
    }
    // The buyer, unless their account was removed since.
    const buyerId = session.metadata?.user_id ?? '';
    const buyer = UUID.test(buyerId) ? await userById(tx, buyerId) : null;
    const credited = await creditPurchase(tx, {
      sessionId: session.id,
      org,
      credits,
      provider: 'stripe',
      userId: buyer?.id ?? null,
    });
    return credited ? 'credited' : 'duplicate';
  });
}
