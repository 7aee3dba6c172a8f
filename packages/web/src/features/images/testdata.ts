import { ImageDetails, ImageList } from '@orrery/contract';

/** Canned answers of the images API for the console tests. */
const Q = 'cluster_name=default&org_name=acme&project_name=vision';
export const LIST = `/api/v1/images?${Q}`;
export const DETAILS = `/api/v1/images/tags?${Q}&name=app`;
export const list = (
  images = [
    { name: 'app', repository: 'acme/vision/app', tags: ['v1', 'v2'] },
    { name: 'tools/cli', repository: 'acme/vision/tools/cli', tags: ['latest'] },
  ],
) => ImageList.parse({ available: true, message: null, registry_host: 'orrery.test', images });
export const details = ImageDetails.parse({
  name: 'app',
  repository: 'acme/vision/app',
  image: 'orrery.test/acme/vision/app',
  tags: [
    { tag: 'v1', digest: 'sha256:1', created_at: '2026-01-02T03:04:05.000Z', size: 1_500_000 },
    { tag: 'v2', digest: null, created_at: null, size: null },
  ],
});
