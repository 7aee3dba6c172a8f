import { storageUri } from '@orrery/contract';
import type { Db } from '../../db/client.js';
import type { Grant } from '../../auth/permissions.js';
import type { EpochSnapshot } from '../../db/epoch-cache.js';
import { visibleAction } from './access.js';
import { clustersOfProject } from '../projects/store.js';
import { badPath, notFoundErr } from './errors.js';

export const STORAGE_PREFIX = '/api/v1/storage';
/** The longest file name of common file systems (ext4, xfs, btrfs), and S3 keys hold it too. */
const NAME_MAX = 255;

/** A storage path: `storage://cluster/org/project/...rest`. */
export interface StoragePath {
  cluster: string;
  org: string;
  project: string;
  rest: string[];
}

/** Segments of the backend key: the project's directory, then the path inside it. */
export const keyOf = (p: StoragePath) => [p.cluster, p.org, p.project, ...p.rest];
export const uriOf = (p: StoragePath) => storageUri(p.cluster, p.org, p.project, p.rest);
/** The path as the SDK shows it: `/ORG/PROJECT/…` (it prepends `storage://CLUSTER`). */
export const wirePath = (p: StoragePath) => `/${[p.org, p.project, ...p.rest].join('/')}`;

/**
 * Splits a raw, still-encoded URL path (`/ORG/PROJECT/a/b`) into checked segments. The raw URL is
 * used rather than Fastify's decoded wildcard so that `%2f` inside a segment cannot pass for a
 * separator and `%2e%2e` is caught after decoding.
 */
export function segmentsOf(path: string, encoded = true): string[] {
  const out: string[] = [];
  for (const raw of path.split('/')) {
    if (raw === '') continue; // `a//b` and a trailing slash, as the SDK's `d/` sends
    let seg = raw;
    try {
      if (encoded) seg = decodeURIComponent(raw);
    } catch {
      throw badPath(`Malformed path segment: ${raw}`);
    }
    if (seg === '.' || seg === '..') throw badPath('Path components "." and ".." are not allowed');
    if (/[/\\\0]/.test(seg)) throw badPath('Path contains a slash, backslash or NUL');
    if (Buffer.byteLength(seg) > NAME_MAX) {
      throw badPath(`File name too long: a path component has at most ${NAME_MAX} bytes`);
    }
    out.push(seg);
  }
  return out;
}

/** The encoded path after the storage prefix of a request URL, without the query. */
export function rawPathOf(url: string) {
  const q = url.indexOf('?');
  return (q < 0 ? url : url.slice(0, q)).slice(STORAGE_PREFIX.length);
}

/**
 * The cluster of `/ORG/PROJECT`. The Apolo SDK leaves the cluster out of storage URLs (each
 * cluster advertises its own `storage_url`; ours is shared), so it is the cluster of the project
 * with that organization and name. A name used in several clusters resolves to one the caller
 * can see, `default` first, then by cluster name.
 */
export async function resolvePath(
  db: Db,
  segments: string[],
  grants: Grant[],
  snap?: EpochSnapshot,
): Promise<StoragePath> {
  const [org, project, ...rest] = segments;
  if (!org || !project) throw notFoundErr();
  const read = () => clustersOfProject(db, org, project);
  // Projects are counted by the `access` epoch: the lookup is shared until one changes.
  const found = await (snap
    ? snap.cached('access', `p:${JSON.stringify([org, project])}`, read)
    : read());
  const clusters = [...found].sort((a, b) =>
    a === 'default' ? -1 : b === 'default' ? 1 : a.localeCompare(b),
  );
  const cluster =
    clusters.find((c) => visibleAction(grants, storageUri(c, org, project))) ?? clusters[0];
  if (!cluster) throw notFoundErr();
  return { cluster, org, project, rest };
}

/**
 * RENAME's `destination` (already decoded from the query): absolute `/ORG/PROJECT/…`, or
 * relative to the source's directory.
 */
export function destinationSegments(src: StoragePath, destination: string): string[] {
  const segments = segmentsOf(destination, false);
  if (destination.startsWith('/')) return segments;
  return [src.org, src.project, ...src.rest.slice(0, -1), ...segments];
}
