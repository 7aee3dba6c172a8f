import { z } from 'zod';

/** The one error body of every route so that every client reads a failure the same way. */
export const ErrorCode = z.enum([
  'bad_request',
  'validation',
  'unauthorized',
  'forbidden',
  'not_found',
  'conflict',
  'unprocessable',
  'rate_limited',
  'internal',
]);
export type ErrorCode = z.infer<typeof ErrorCode>;

export const FieldError = z.object({ path: z.string(), message: z.string() });
export const ErrorBody = z
  .object({ error: ErrorCode, message: z.string(), errors: z.array(FieldError).optional() })
  .meta({ id: 'Error' });
export type ErrorBody = z.infer<typeof ErrorBody>;

export const STATUS_OF: Record<ErrorCode, number> = {
  bad_request: 400,
  validation: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  unprocessable: 422,
  rate_limited: 429,
  internal: 500,
};
