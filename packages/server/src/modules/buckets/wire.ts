import type { BucketProvider, BucketWire, PersistentCredentialsWire } from '@orrery/contract';
import { bucketUriOf } from './scope.js';
import { locationOf, providerCredentials, type BucketContext } from './service.js';
import type { BucketView, CredentialsView } from './store.js';

export { bucketUriOf };

export const bucketWire = (b: BucketView): BucketWire => ({
  id: b.id,
  name: b.name,
  // A deleted account leaves its buckets without an owner; the wire wants a string.
  owner: b.owner ?? '',
  org_name: b.orgName,
  project_name: b.projectName,
  cluster_name: b.clusterName,
  provider: b.provider as BucketProvider,
  created_at: b.createdAt.toISOString(),
  imported: b.imported,
  public: b.public,
  uri: bucketUriOf(b),
});

/**
 * Credentials with what each of their buckets needs; `known` holds those buckets. The keys
 * (`withKeys`) go only into the answer to the call that made them: lists and reads show where
 * each bucket is, never a key, so that whoever may see a project's credentials cannot act with
 * someone else's (docs/buckets.md).
 */
export function credentialsWire(
  ctx: BucketContext,
  c: CredentialsView,
  known: BucketView[],
  withKeys = false,
): PersistentCredentialsWire {
  const its = c.bucketIds
    .map((id) => known.find((b) => b.id === id))
    .filter((b): b is BucketView => !!b);
  return {
    id: c.id,
    name: c.name,
    owner: c.owner ?? '',
    org_name: c.orgName,
    project_name: c.projectName,
    cluster_name: c.clusterName,
    read_only: c.readOnly,
    bucket_ids: its.map((b) => b.id),
    credentials: its.map((b) => ({
      bucket_id: b.id,
      provider: b.provider as BucketProvider,
      credentials: withKeys ? providerCredentials(ctx, b, c.id) : locationOf(ctx, b),
    })),
  };
}
