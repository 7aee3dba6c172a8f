import { z } from 'zod';

/**
 * What the database's numeric columns hold (packages/server/src/db/schema.ts), in one place: a
 * number beyond its column answered 500 once (`1e308` credits per hour). Every input schema that
 * reaches such a column takes its bound from here.
 */

/** `integer` columns: node pool sizes, a jobs quota, a job's maximum run time. */
export const INT4_MAX = 2_147_483_647;
/** `numeric(20, 4)` columns (credits): at most 16 digits before the point. */
export const DECIMAL_DIGITS = 16;
/** The same bound for a credits value given as a JS number. */
export const DECIMAL_MAX = 10 ** DECIMAL_DIGITS;
/**
 * `bigint` columns are read as JS numbers (bytes of memory and disks): `.int()` of zod already
 * keeps them within Number.MAX_SAFE_INTEGER. `double precision` columns hold any finite number,
 * which `z.number()` already requires.
 */

export const BOUND_TEXTS = {
  intMax: `Must be at most ${INT4_MAX}`,
  decimalMax: `Must be less than 10^${DECIMAL_DIGITS}, with at most 20 decimal places`,
} as const;

/** A whole number an `integer` column holds. */
export const int4 = () => z.number().int().max(INT4_MAX, BOUND_TEXTS.intMax);

/**
 * Whether a decimal string (already checked for its form) fits a `numeric(20, 4)` column: at most
 * 16 digits before the point; more than 20 after it (rounded to 4 by the column) is noise.
 */
export const fitsDecimal = (s: string) => {
  const [whole = '', fraction = ''] = s.replace(/^-/, '').split('.');
  return whole.replace(/^0+/, '').length <= DECIMAL_DIGITS && fraction.length <= 20;
};
