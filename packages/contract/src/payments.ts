import { z } from 'zod';

/**
 * Buying credits and the ledger: a credit costs 100 cents,
 * the buy call takes the amount in cents and answers where to send the browser.
 */

export const CENTS_PER_CREDIT = 100;
/** Stripe takes at most 99,999,999 cents in one payment; whole credits below it. */
export const MAX_CREDITS_PER_PURCHASE = 999_999;
/** The return query the console reads after a checkout, appended by the server to the buyer's URLs. */
export const BUY_CREDITS_STATUS = 'buy-credits-status';

export const PAYMENTS_TEXTS = {
  off: 'Purchases are not configured here. Ask an administrator for credits.',
  amountWhole: 'Amount must be a whole number of cents',
  amountPositive: 'Amount must be positive',
  amountCredits: `Amount must be a whole number of credits (${CENTS_PER_CREDIT} cents each)`,
  amountMax: `At most ${MAX_CREDITS_PER_PURCHASE.toLocaleString('en-US')} credits can be bought at once`,
  urlOrigin: 'Must be an address of this console',
  checkoutClosed: (status: string) => `This checkout is already ${status}`,
  unlimited: (org: string) => `Organization ${org} has unlimited credits: there is nothing to buy`,
  providerDown:
    'The payment provider could not open a checkout. Try again later, or ask an administrator if this persists.',
} as const;

export const PaymentsMode = z.enum(['stripe', 'test', 'off']);
export type PaymentsMode = z.infer<typeof PaymentsMode>;
export const Payments = z.object({ mode: PaymentsMode });
export type Payments = z.infer<typeof Payments>;

export const BuyCredits = z.object({
  org_name: z.string().min(1),
  amount_in_cents: z
    .number({ message: PAYMENTS_TEXTS.amountWhole })
    .int(PAYMENTS_TEXTS.amountWhole)
    .positive(PAYMENTS_TEXTS.amountPositive)
    .multipleOf(CENTS_PER_CREDIT, PAYMENTS_TEXTS.amountCredits)
    .max(MAX_CREDITS_PER_PURCHASE * CENTS_PER_CREDIT, PAYMENTS_TEXTS.amountMax),
  success_url: z.string().url().max(2048),
  cancel_url: z.string().url().max(2048),
});
export type BuyCredits = z.infer<typeof BuyCredits>;

export const CheckoutUrl = z.object({ checkout_url: z.string() });

export const CheckoutStatus = z.enum(['open', 'paid', 'cancelled']);
export const TestCheckout = z.object({
  id: z.string(),
  org_name: z.string(),
  credits: z.number().int(),
  status: CheckoutStatus,
  success_url: z.string(),
  cancel_url: z.string(),
  test: z.literal(true),
});
export type TestCheckout = z.infer<typeof TestCheckout>;
export const RedirectUrl = z.object({ redirect_url: z.string() });
export type RedirectUrl = z.infer<typeof RedirectUrl>;

export const LedgerKind = z.enum(['usage', 'grant', 'set', 'purchase']);
export const LedgerEntry = z.object({
  id: z.number().int(),
  kind: LedgerKind,
  /** Signed decimal string: usage negative, grants and purchases positive. */
  credits: z.string(),
  /** null: the balance is unlimited. */
  balance_after: z.string().nullable(),
  user_name: z.string().nullable(),
  reference: z.string().nullable(),
  created_at: z.string(),
});
export type LedgerEntry = z.infer<typeof LedgerEntry>;
