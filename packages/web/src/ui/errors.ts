import { ApiError } from '../api/client';

/** The first field error of a 400, which forms show on their main field. */
export const firstFieldError = (error: unknown): string | null =>
  error instanceof ApiError ? (error.fieldErrors[0]?.message ?? null) : null;

/** The server's own message when it sent one, else the given fallback. */
export const messageOf = (error: unknown, fallback: string): string =>
  error instanceof ApiError && error.body?.message ? error.body.message : fallback;

/** The server's message for one field of a 400/409, if it named that field. */
export const fieldErrorOf = (error: unknown, path: string): string | null =>
  error instanceof ApiError
    ? (error.fieldErrors.find((e) => e.path === path)?.message ?? null)
    : null;
