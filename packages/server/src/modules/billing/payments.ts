import type Stripe from 'stripe';
import { CENTS_PER_CREDIT, PAYMENTS_TEXTS, type BuyCredits } from '@orrery/contract';
import type { AppContext } from '../../context.js';
import { conflict, invalid, notFound } from '../../http/errors.js';
import { createTestCheckout } from './checkout.js';
import { orgCredits } from './store-ledger.js';

/** Where buying credits goes, by ORRERY_PAYMENTS (config.ts `paymentsOf`). */
export async function paymentsOf(ctx: AppContext) {
  const { payments, publicUrl } = ctx.config;
  // The Stripe SDK is loaded only where Stripe is configured: it took a tenth of every start.
  const sdk = payments.stripe ? await import('./stripe.js') : null;
  const stripe: Stripe | null = sdk && payments.stripe ? sdk.stripeClient(payments.stripe) : null;

  /**
   * The buyer comes back to these addresses, so they must be this console's: anything else would
   * make the checkout an open redirect to a page dressed as ours.
   */
  function checkReturnUrls(b: BuyCredits) {
    const origin = new URL(publicUrl).origin;
    for (const key of ['success_url', 'cancel_url'] as const) {
      if (new URL(b[key]).origin !== origin) throw invalid(key, PAYMENTS_TEXTS.urlOrigin);
    }
  }

  return {
    mode: payments.mode,
    stripe,
    /** The address of the checkout for these credits: Stripe's hosted page, or the test one. */
    async start(b: BuyCredits, userId: string, warn: (msg: string) => void): Promise<string> {
      if (payments.mode === 'off') throw conflict(PAYMENTS_TEXTS.off);
      checkReturnUrls(b);
      // Paid credits would vanish into an unlimited balance (the console offers no buy there).
      const org = await orgCredits(ctx.db, b.org_name);
      if (!org) throw notFound(`Organization ${b.org_name} not found`);
      if (org.credits === null) throw conflict(PAYMENTS_TEXTS.unlimited(b.org_name));
      const request = {
        org: b.org_name,
        credits: b.amount_in_cents / CENTS_PER_CREDIT,
        successUrl: b.success_url,
        cancelUrl: b.cancel_url,
        userId,
      };
      return sdk && stripe
        ? sdk.createStripeCheckout(stripe, request, warn)
        : createTestCheckout(ctx.db, publicUrl, request);
    },
  };
}
