import { TransactionRollbackError } from 'drizzle-orm';

/**
 * The unique index a statement violated (PostgreSQL 23505), however the driver wrapped the error
 * (drizzle nests the driver's error as `cause`); null for any other error.
 */
export function uniqueViolation(e: unknown): { constraint?: string } | null {
  for (let err = e as { code?: string; constraint?: string; cause?: unknown } | undefined; err;) {
    if (err.code === '23505') return { constraint: err.constraint };
    err = err.cause as typeof err;
  }
  return null;
}

export const isUniqueViolation = (e: unknown) => uniqueViolation(e) !== null;

/** A transaction ended on purpose by `tx.rollback()`, not by a failure. */
export const isRollback = (e: unknown) => e instanceof TransactionRollbackError;
