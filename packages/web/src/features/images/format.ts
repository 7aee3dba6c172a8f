import type { ImageRepo } from '../../api/images';

export { formatDate } from '../../ui/dates';

/** Case-insensitive search on the image's name and its tags. */
export function matches(image: ImageRepo, search: string) {
  const q = search.trim().toLowerCase();
  if (!q) return true;
  return (
    image.name.toLowerCase().includes(q) || image.tags.some((t) => t.toLowerCase().includes(q))
  );
}

/** `HOST/ORG/PROJECT/NAME`, as typed in `docker pull`. */
export const imageReference = (host: string, image: ImageRepo) => `${host}/${image.repository}`;
