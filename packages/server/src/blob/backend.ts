import type { Readable } from 'node:stream';
import type { StorageErrno, StorageUsage } from '@orrery/contract';

/**
 * File backends of the Storage API (docs/files.md): fs and s3 behind one interface.
 *
 * A key is a list of path segments below the backend's root (`['default', 'acme', 'vision',
 * 'data', 'x.csv']`); callers have already checked every segment (no `.`, `..`, `/`, `\`, NUL).
 * The interface only uses operations an object store can also provide: whole-object writes that
 * appear atomically, ranged reads, prefix listing and deletes; directories may be virtual.
 */
export type Key = readonly string[];

export type EntryType = 'FILE' | 'DIRECTORY' | 'SYMLINK';

export interface Entry {
  /** Last key segment. */
  name: string;
  type: EntryType;
  /** Bytes; 0 for directories. */
  size: number;
  mtime: Date;
  /** Where a symlink points, as written in the link. */
  target?: string;
}

/** Inclusive byte range. */
export interface ByteRange {
  start: number;
  end: number;
}

export interface Removed {
  key: Key;
  isDir: boolean;
}

export interface BlobBackend {
  readonly kind: 'fs' | 's3';
  /**
   * The entry at `key`, or null when nothing is there. A symlink is described as such unless
   * `follow` asks for what it leads to (refused with EACCES when that is outside its jail).
   */
  stat(key: Key, opts?: { follow?: boolean }): Promise<Entry | null>;
  /** Children of a directory, streamed (order unspecified). ENOENT, ENOTDIR. */
  list(key: Key): AsyncIterable<Entry>;
  /** A file's bytes, or a range of them. ENOENT, EISDIR. */
  read(key: Key, range?: ByteRange): Promise<Readable>;
  /**
   * Replaces (or creates) a file with the body. The new content appears at once and only when
   * the body ended cleanly: a failed or aborted upload leaves the previous state. Parents are
   * created. EISDIR, ENOTDIR.
   */
  create(key: Key, body: Readable): Promise<number>;
  /** Writes the body into an existing file at `offset` (chunked uploads). ENOENT, EISDIR. */
  write(key: Key, offset: number, body: Readable): Promise<number>;
  /** Creates a directory and its parents; a directory already there is fine. EEXIST, ENOTDIR. */
  mkdirs(key: Key): Promise<void>;
  /** Removes a file, or a directory with everything below it, yielding each removed entry. */
  remove(key: Key, recursive: boolean): AsyncIterable<Removed>;
  /** Moves a file or directory. ENOENT, EISDIR, ENOTDIR, ENOTEMPTY, EINVAL. */
  rename(from: Key, to: Key): Promise<void>;
  /** Capacity of the volume holding the files, in bytes. */
  usage(): Promise<StorageUsage>;
  /**
   * Bytes of the files below `key` (a project's, for storage charges); 0 when nothing is there.
   * Symlinks are not followed.
   */
  bytes(key: Key): Promise<number>;
}

/** A failure the caller can act on, with the errno name the Apolo SDK turns into an OSError. */
export class BlobError extends Error {
  constructor(
    readonly errno: StorageErrno,
    message: string,
  ) {
    super(message);
  }
}

const MESSAGES: Record<StorageErrno, string> = {
  ENOENT: 'Not found',
  ENOTDIR: 'Not a directory',
  EISDIR: 'Is a directory',
  EEXIST: 'File exists',
  ENOTEMPTY: 'Directory not empty',
  EINVAL: 'Invalid argument',
  EACCES: 'Path leads outside the storage',
};

export const blobError = (errno: StorageErrno, message = MESSAGES[errno]) =>
  new BlobError(errno, message);

/** Node's system errors mapped onto BlobError; anything else is rethrown as is. */
export function asBlobError(e: unknown): unknown {
  const code = (e as NodeJS.ErrnoException)?.code;
  if (code === 'ENOTEMPTY' || code === 'EEXIST' || code === 'ENOENT') return blobError(code);
  if (code === 'ENOTDIR' || code === 'EISDIR' || code === 'EINVAL') return blobError(code);
  if (code === 'ELOOP') return blobError('EACCES');
  // A whole path beyond PATH_MAX (every component is already at most NAME_MAX), or a key beyond
  // what an object store holds.
  if (code === 'ENAMETOOLONG' || (e as Error)?.name === 'KeyTooLongError') {
    return blobError('EINVAL', 'File name too long');
  }
  // A write beyond the largest file the file system holds.
  if (code === 'EFBIG') return blobError('EINVAL', 'File too large');
  return e;
}
