import { BUY_CREDITS_STATUS, CENTS_PER_CREDIT } from '@orrery/contract';

/** The query parameters a purchase comes back with (the server sets the same). */
export const BUY_STATUS = BUY_CREDITS_STATUS;
export const BUY_CREDITS = 'credits';
export { CENTS_PER_CREDIT };
/** Quick amounts and the default. */
export const QUICK_CREDITS = [10, 100, 1000] as const;
export const DEFAULT_CREDITS = 100;

/**
 * Where the checkout sends the buyer back: the page they bought from, with the outcome (and the
 * credits bought) in its query, any earlier outcome dropped.
 */
export function returnUrls(href: string, credits: number) {
  const page = new URL(href);
  page.searchParams.delete(BUY_STATUS);
  page.searchParams.delete(BUY_CREDITS);
  const success = new URL(page);
  success.searchParams.set(BUY_STATUS, 'success');
  success.searchParams.set(BUY_CREDITS, String(credits));
  const failure = new URL(page);
  failure.searchParams.set(BUY_STATUS, 'failure');
  return { successUrl: success.toString(), cancelUrl: failure.toString() };
}
