import { z } from 'zod';
import { Action } from './roles.js';
import { formatUri } from './uris.js';

/**
 * The Storage API (files), WebHDFS-like as Apolo's (docs/files.md): `{storage_url}/ORG/PROJECT/PATH?op=…`.
 * Field names are the WebHDFS ones the Apolo SDK reads (`FileStatus`, `modificationTime`), so they
 * are camelCase on the wire, unlike the rest of the API.
 */
export const STORAGE_OPS = [
  'LISTSTATUS',
  'GETFILESTATUS',
  'GETDISKUSAGE',
  'OPEN',
  'CREATE',
  'WRITE',
  'MKDIRS',
  'DELETE',
  'RENAME',
] as const;
export const StorageOp = z.enum(STORAGE_OPS);
export type StorageOp = z.infer<typeof StorageOp>;

/** Operation used when the query names none, per method. */
export const DEFAULT_STORAGE_OP: Record<string, StorageOp> = {
  GET: 'OPEN',
  HEAD: 'OPEN',
  PUT: 'CREATE',
  PATCH: 'WRITE',
  DELETE: 'DELETE',
  POST: 'RENAME',
};

export const FileType = z.enum(['FILE', 'DIRECTORY', 'SYMLINK']);
export type FileType = z.infer<typeof FileType>;

export const FileStatus = z
  .object({
    /** Child name in a listing; the full `/ORG/PROJECT/…` path in GETFILESTATUS. */
    path: z.string(),
    length: z.number().int(),
    /** Unix seconds. */
    modificationTime: z.number().int(),
    permission: Action,
    type: FileType,
    target: z.string().optional(),
  })
  .meta({ id: 'FileStatus' });
export type FileStatus = z.infer<typeof FileStatus>;

export const FileStatusResponse = z.object({ FileStatus });
export const FileStatusList = z.object({
  FileStatuses: z.object({ FileStatus: z.array(FileStatus) }),
});
export const StorageUsage = z.object({ total: z.number(), used: z.number(), free: z.number() });
export type StorageUsage = z.infer<typeof StorageUsage>;

/** One NDJSON line of a recursive DELETE. */
export const RemovedEntry = z.object({ path: z.string(), is_dir: z.boolean() });

/**
 * Query of every storage call. `op` may also come as a bare parameter (`?LISTSTATUS`); `token`
 * is accepted on GET op=OPEN only, for links opened in a new browser tab.
 */
export const StorageQuery = z.looseObject({
  op: z.string().optional(),
  recursive: z.string().optional(),
  destination: z.string().optional(),
  token: z.string().optional(),
});

/** Symbolic errno names carried by storage errors (`errno` beside `error` and `message`). */
export const StorageErrno = z.enum([
  'ENOENT',
  'ENOTDIR',
  'EISDIR',
  'EEXIST',
  'ENOTEMPTY',
  'EINVAL',
  'EACCES',
]);
export type StorageErrno = z.infer<typeof StorageErrno>;

/** `storage://CLUSTER/ORG/PROJECT/…path`, the URI the permission engine checks. */
export const storageUri = (cluster: string, org: string, project: string, path: string[] = []) =>
  formatUri('storage', cluster, org, project, ...path);
