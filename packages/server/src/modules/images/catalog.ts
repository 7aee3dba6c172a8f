import type { Grant } from '../../auth/permissions.js';
import { allows } from '../../auth/permissions.js';
import type { Db } from '../../db/client.js';
import { clusterOf, imageUriOf, splitRepository, type RepoPlace } from './names.js';
import { upstreamJson } from './proxy.js';
import type { Registry } from './upstream.js';

const UPSTREAM_PAGE = 1000;

/** Every repository the registry holds, following its own paging. */
export async function allRepositories(registry: Registry): Promise<string[]> {
  const out: string[] = [];
  let last = '';
  for (;;) {
    const q = `n=${UPSTREAM_PAGE}${last ? `&last=${encodeURIComponent(last)}` : ''}`;
    const res = await upstreamJson<{ repositories?: string[] }>(registry, `/v2/_catalog?${q}`);
    if (res.status !== 200) throw new Error(`registry catalog answered ${res.status}`);
    const page = res.body?.repositories ?? [];
    out.push(...page);
    if (page.length < UPSTREAM_PAGE || !res.headers.get('link')) return out;
    last = page[page.length - 1];
  }
}

/** The repositories the grants may read, as places, optionally limited to an org or project. */
export async function readableRepositories(
  db: Db,
  registry: Registry,
  grants: Grant[],
  only: { org?: string; project?: string; cluster?: string } = {},
): Promise<RepoPlace[]> {
  const clusters = new Map<string, string>();
  const out: RepoPlace[] = [];
  for (const repository of await allRepositories(registry)) {
    const parts = splitRepository(repository);
    if (!parts) continue;
    if (only.org && parts.org !== only.org) continue;
    if (only.project && parts.project !== only.project) continue;
    const key = `${parts.org}/${parts.project}`;
    let cluster = clusters.get(key);
    if (cluster === undefined) {
      cluster = await clusterOf(db, parts.org, parts.project);
      clusters.set(key, cluster);
    }
    if (only.cluster && cluster !== only.cluster) continue;
    const place = { ...parts, cluster, repository };
    if (allows(grants, imageUriOf(place), 'read')) out.push(place);
  }
  return out.sort((a, b) => (a.repository < b.repository ? -1 : 1));
}

/**
 * One page of a sorted list after `last`, at most `n` long (no `n`: everything), and whether a
 * further page exists.
 */
export function pageOf(all: string[], n: number | null, last: string | null) {
  const after = last === null ? all : all.filter((r) => r > last);
  if (n === null) return { page: after, more: false };
  return { page: after.slice(0, n), more: after.length > n };
}

/** `Link: </v2/_catalog?n=N&last=X>; rel="next"`, keeping the caller's other filters. */
export function nextLink(path: string, query: Record<string, string>, n: number, last: string) {
  const q = new URLSearchParams({ ...query, n: String(n), last });
  return `<${path}?${q.toString()}>; rel="next"`;
}
