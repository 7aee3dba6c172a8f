import { STATUS_OF, type ErrorBody, type ErrorCode } from '@orrery/contract';

/** Thrown anywhere in a route; the error handler turns it into the one error body. */
export class HttpError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly errors?: { path: string; message: string }[],
  ) {
    super(message);
  }
  get status() {
    return STATUS_OF[this.code];
  }
  /** Fastify's name for it, which error handlers of other scopes (the sign-in pages) read. */
  get statusCode() {
    return this.status;
  }
  body(): ErrorBody {
    return {
      error: this.code,
      message: this.message,
      ...(this.errors ? { errors: this.errors } : {}),
    };
  }
}

export const notFound = (what = 'Not found') => new HttpError('not_found', what);
export const forbidden = (what = 'You do not have permission to do this') =>
  new HttpError('forbidden', what);
export const unauthorized = () => new HttpError('unauthorized', 'Sign in to continue');
export const conflict = (message: string, path?: string) =>
  new HttpError('conflict', message, path ? [{ path, message }] : undefined);
export const invalid = (path: string, message: string) =>
  new HttpError('validation', message, [{ path, message }]);

/** A body checked in the handler (its schema depends on the query) fails like a route schema. */
export function validationOf(error: { issues: { path: PropertyKey[]; message: string }[] }) {
  const errors = error.issues.map((i) => ({
    path: i.path.map(String).join('.'),
    message: i.message,
  }));
  return new HttpError('validation', errors[0]?.message ?? 'Invalid request', errors);
}
