import type { ErrorCode, StorageErrno } from '@orrery/contract';
import { asBlobError, BlobError } from '../../blob/backend.js';
import { HttpError } from '../../http/errors.js';

/**
 * The one error body plus `errno`: the Apolo SDK turns a 400 carrying `errno`
 * into the matching Python OSError (FileExistsError, IsADirectoryError, …).
 */
export class StorageError extends HttpError {
  constructor(
    code: ErrorCode,
    message: string,
    readonly errno?: StorageErrno,
  ) {
    super(code, message);
  }
  override body() {
    return { ...super.body(), ...(this.errno ? { errno: this.errno } : {}) };
  }
}

export const badPath = (message: string) => new StorageError('bad_request', message, 'EINVAL');
export const notFoundErr = () => new StorageError('not_found', 'Not found', 'ENOENT');
export const illegal = (message: string) => new StorageError('bad_request', message);

/** A backend failure as an HTTP error: ENOENT is 404, every other errno a 400. */
export function httpOf(error: unknown): unknown {
  const e = asBlobError(error);
  if (!(e instanceof BlobError)) return e;
  if (e.errno === 'ENOENT') return notFoundErr();
  return new StorageError('bad_request', e.message, e.errno);
}

/** Runs a backend call, translating its errors. */
export async function blob<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (e) {
    throw httpOf(e);
  }
}
