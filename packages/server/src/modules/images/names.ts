import { DEFAULT_IMAGE_CLUSTER, imageUri } from '@orrery/contract';
import type { Db } from '../../db/client.js';
import { clustersOfProject } from '../projects/store.js';

/** A repository `ORG/PROJECT/NAME` and the cluster of its project. */
export interface RepoPlace {
  cluster: string;
  org: string;
  project: string;
  /** NAME, which may hold slashes. */
  name: string;
  repository: string;
}

/** Distribution's repository name grammar, with at least three components. */
const COMPONENT = /^[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*$/;

export function splitRepository(repository: string) {
  const parts = repository.split('/');
  if (parts.length < 3 || !parts.every((p) => COMPONENT.test(p))) return null;
  return { org: parts[0], project: parts[1], name: parts.slice(2).join('/') };
}

/**
 * The cluster of `ORG/PROJECT`: the project's own when exactly one cluster has it, else the
 * default cluster (the CLI never names the cluster in an image reference).
 */
export async function clusterOf(db: Db, org: string, project: string) {
  const clusters = await clustersOfProject(db, org, project);
  if (clusters.length === 1) return clusters[0];
  return DEFAULT_IMAGE_CLUSTER;
}

export async function placeOf(db: Db, repository: string): Promise<RepoPlace | null> {
  const parts = splitRepository(repository);
  if (!parts) return null;
  return { ...parts, cluster: await clusterOf(db, parts.org, parts.project), repository };
}

export const imageUriOf = (p: RepoPlace) => imageUri(p.cluster, p.org, p.project, p.name);

/** A `/v2/` path after the prefix: the repository and what is asked of it. */
export type V2Target =
  | { kind: 'base' }
  | { kind: 'catalog' }
  | { kind: 'repo'; repository: string; rest: string; push: boolean };

const REPO_PATH = /^(.+?)\/(tags\/list|manifests\/[^/]+|blobs\/uploads\/?[^/]*|blobs\/[^/]+)$/;
const READ_METHODS = new Set(['GET', 'HEAD']);

export function parseV2(path: string, method: string): V2Target | null {
  if (path === '' || path === '/') return { kind: 'base' };
  if (path === '_catalog') return { kind: 'catalog' };
  const m = REPO_PATH.exec(path);
  if (!m) return null;
  const rest = m[2];
  // An upload session is pushing even when it is only asked for its status.
  const push = !READ_METHODS.has(method) || rest.startsWith('blobs/uploads');
  return { kind: 'repo', repository: m[1], rest, push };
}
