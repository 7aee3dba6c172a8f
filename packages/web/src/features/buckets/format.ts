import type { Bucket } from '../../api/buckets';
import { BUCKET_TEXTS } from './texts';

export const bucketLabel = (b: Pick<Bucket, 'id' | 'name'>) => b.name ?? b.id;

export { formatDate } from '../../ui/dates';

/** Case-insensitive match on name, id or provider. */
export function matches(b: Bucket, search: string) {
  const q = search.trim().toLowerCase();
  if (!q) return true;
  return [b.name ?? '', b.id, b.provider, BUCKET_TEXTS.providers[b.provider]].some((s) =>
    s.toLowerCase().includes(q),
  );
}

/** The path of a bucket's own page (the route has bucketId and bucketName). */
export const bucketPath = (b: Bucket) =>
  `/buckets/${encodeURIComponent(b.id)}/${encodeURIComponent(bucketLabel(b))}`;
