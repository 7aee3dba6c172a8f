import type { BucketObjectPage } from '../../api/buckets';
import type { FileStatus } from '../../api/storage';

/** The key prefix of a folder: `['a', 'b']` → `a/b/`; the bucket's root is ``. */
export const prefixOf = (folder: string[]) => folder.map((s) => `${s}/`).join('');

/**
 * A folder's pages as the entries the files area's tiles, search and dialogs work with: the
 * name below the prefix, FILE or DIRECTORY, and the caller's permission on the bucket. A folder
 * of a bucket is only a prefix, so it has no size or time of its own (0).
 */
export function entriesOf(pages: BucketObjectPage[], prefix: string): FileStatus[] {
  return pages.flatMap((page) => [
    ...page.folders.map((f): FileStatus => ({
      path: f.slice(prefix.length, -1),
      type: 'DIRECTORY',
      length: 0,
      modificationTime: 0,
      permission: page.permission,
    })),
    ...page.objects.map((o): FileStatus => ({
      path: o.key.slice(prefix.length),
      type: 'FILE',
      length: o.size,
      modificationTime: Math.floor(Date.parse(o.lastModified) / 1000),
      permission: page.permission,
    })),
  ]);
}
