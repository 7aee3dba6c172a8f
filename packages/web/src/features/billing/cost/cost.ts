import { formatCredits } from '../credits';

/**
 * Cost beside each resource: the words and figures every list and page uses, so that a
 * preset's rate reads the same in the job form, the app form and the presets lists.
 */
export const COST_TEXTS = {
  credits: 'Credits',
  soFar: 'Credits so far',
  perHour: 'Credits per hour',
  perDay: 'Credits per day',
  free: 'Free',
};

/** `1.25 credits/h` */
export const perHour = (credits: string | number) => `${formatCredits(String(credits))} credits/h`;
/** `12 credits/day` */
export const perDay = (credits: string | number) => `${formatCredits(String(credits))} credits/day`;
/** `0.0125 credits` */
export const credits = (value: string | number) => `${formatCredits(String(value))} credits`;

const BYTES_PER_GB = 1000 ** 3;

/**
 * What a disk costs a day: its size in GB (10^9 bytes, as the server meters it) × the cluster's
 * price per GB-day. Null when the cluster does not say (an older server): nothing is shown then.
 */
export function diskCreditsPerDay(bytes: number, pricePerGbDay: string | null | undefined) {
  if (pricePerGbDay === null || pricePerGbDay === undefined) return null;
  const price = Number(pricePerGbDay);
  if (!Number.isFinite(price)) return null;
  return Math.round((bytes / BYTES_PER_GB) * price * 10_000) / 10_000;
}
