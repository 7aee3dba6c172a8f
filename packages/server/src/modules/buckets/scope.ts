import type { FastifyRequest } from 'fastify';
import { blobUri, DEFAULT_BUCKET_CLUSTER } from '@orrery/contract';
import type { BucketView, ProjectPlace } from './store.js';

export const BUCKETS_BASE = '/api/v1/buckets';

/**
 * Access is checked before validation, so the URI is read from the raw query or body; a missing
 * organization or project yields a URI nobody holds (404), and validation never runs.
 */
export const str = (v: unknown) => (typeof v === 'string' ? v : '');
export function placeOf(...sources: unknown[]): ProjectPlace {
  const s = Object.assign({}, ...sources.map((x) => x ?? {})) as Record<string, unknown>;
  return {
    cluster: str(s.cluster_name) || DEFAULT_BUCKET_CLUSTER,
    org: str(s.org_name) || '-',
    project: str(s.project_name) || '-',
  };
}
export const projectBlobs = (p: ProjectPlace) => blobUri(p.cluster, p.org, p.project);
export const fromQuery = (r: FastifyRequest) => projectBlobs(placeOf(r.query));
export const fromBody = (r: FastifyRequest) => projectBlobs(placeOf(r.body));
export const oneFromQuery = (r: FastifyRequest) =>
  `${fromQuery(r)}/${encodeURIComponent((r.params as { bucket?: string }).bucket ?? '-')}`;
/** `ORG/PROJECT/BUCKET/key…` (a `blob:` URI's path) → that bucket's URI. */
export const pathParts = (r: FastifyRequest) => {
  const q = (r.query ?? {}) as Record<string, unknown>;
  const [org, project, bucket] = str(q.path).split('/').filter(Boolean);
  return { cluster: str(q.cluster_name) || DEFAULT_BUCKET_CLUSTER, org, project, bucket };
};
export const fromPath = (r: FastifyRequest) => {
  const p = pathParts(r);
  return blobUri(p.cluster, p.org || '-', p.project || '-', p.bucket || '-');
};
export const placeOfQuery = (q: {
  cluster_name: string;
  org_name: string;
  project_name: string;
}) => ({
  cluster: q.cluster_name,
  org: q.org_name,
  project: q.project_name,
});

/** The URI of a bucket in the permission engine: by name when it has one, else by id. */
export const bucketUriOf = (b: BucketView) =>
  blobUri(b.clusterName, b.orgName, b.projectName, b.name ?? b.id);
