import { z } from 'zod';
import { formatUri } from './uris.js';

/**
 * Images: an OCI registry behind Orrery at `/v2/`, and a
 * console API under `/api/v1/images`. Repositories are named `ORG/PROJECT/NAME` (NAME may hold
 * slashes); their permission URI is `image://CLUSTER/ORG/PROJECT/NAME`.
 */
export const DEFAULT_IMAGE_CLUSTER = 'default';
export const IMAGES_UNAVAILABLE =
  'Images are unavailable: no registry is installed (install docker-registry or set ORRERY_REGISTRY_URL)';

export const imageUri = (cluster: string, org: string, project: string, name?: string) =>
  name
    ? formatUri('image', cluster, org, project, ...name.split('/'))
    : formatUri('image', cluster, org, project);

const Scope = {
  org_name: z.string().min(1),
  project_name: z.string().min(1),
  cluster_name: z.string().min(1).default(DEFAULT_IMAGE_CLUSTER),
};
export const ImageListQuery = z.object(Scope);
export const ImageTagsQuery = z.object({ ...Scope, name: z.string().min(1) });

/** One repository of a project: `name` is NAME, `repository` is `ORG/PROJECT/NAME`. */
export const ImageRepo = z
  .object({ name: z.string(), repository: z.string(), tags: z.array(z.string()) })
  .meta({ id: 'ImageRepo' });
export type ImageRepoWire = z.infer<typeof ImageRepo>;

/** The registry's host as typed in `docker push HOST/ORG/PROJECT/NAME:TAG`. */
export const ImageList = z
  .object({
    available: z.boolean(),
    message: z.string().nullable(),
    registry_host: z.string(),
    images: z.array(ImageRepo),
  })
  .meta({ id: 'ImageList' });
export type ImageListWire = z.infer<typeof ImageList>;

export const ImageTag = z.object({
  tag: z.string(),
  digest: z.string().nullable(),
  created_at: z.string().nullable(),
  size: z.number().int().nullable(),
});
export type ImageTagWire = z.infer<typeof ImageTag>;

export const ImageDetails = z
  .object({
    name: z.string(),
    repository: z.string(),
    image: z.string(),
    tags: z.array(ImageTag),
  })
  .meta({ id: 'ImageDetails' });
export type ImageDetailsWire = z.infer<typeof ImageDetails>;
