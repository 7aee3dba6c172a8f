import { z } from 'zod';
import { Action } from './roles.js';
import { formatUri } from './uris.js';

/**
 * Buckets and persistent credentials (base `buckets_url` = `/api/v1/buckets`,
 * docs/buckets.md). Clients with credentials reach object data at the provider; the
 * console goes through Orrery's object API below (an Orrery extension, docs/buckets.md).
 * `cluster_name` is ours and optional, because the CLI never sends it.
 */
export const BUCKET_NAME = /^[a-z](-?[a-z0-9])*$/;
export const BUCKET_NAME_MIN = 3;
export const BUCKET_NAME_MAX = 40;
export const BUCKET_NAME_INVALID = 'Invalid name';
export const BUCKET_NAME_LENGTH = `Bucket name must be ${BUCKET_NAME_MIN} to ${BUCKET_NAME_MAX} characters`;
export const DEFAULT_BUCKET_CLUSTER = 'default';
/** The console's words for gcp; every provider without an S3 API gets the same sentence. */
export const bucketNotViewable = (provider: string) =>
  `Buckets created with "${provider}" cannot be viewed in the web UI`;
export const GCP_BUCKET_NOT_VIEWABLE = bucketNotViewable('gcp');
export const bucketTaken = (name: string) => `Bucket with name ${name} already exists`;
export const credentialsTaken = (name: string) =>
  `Bucket credentials with name ${name} already exist`;
export const bucketCredentialsCreated = (name: string) => `Bucket credentials ${name} was created`;

export const BucketProvider = z.enum(['aws', 'minio', 'seaweedfs', 'azure', 'gcp', 'open_stack']);
export type BucketProvider = z.infer<typeof BucketProvider>;

export const BucketName = z
  .string()
  .min(BUCKET_NAME_MIN, BUCKET_NAME_LENGTH)
  .max(BUCKET_NAME_MAX, BUCKET_NAME_LENGTH)
  .regex(BUCKET_NAME, BUCKET_NAME_INVALID);

/** What a bucket and a set of bucket credentials both are: a named thing of a user in a project. */
const Owned = {
  id: z.string(),
  name: z.string().nullable(),
  owner: z.string(),
  org_name: z.string(),
  project_name: z.string(),
  cluster_name: z.string(),
};

export const Bucket = z
  .object({
    ...Owned,
    provider: BucketProvider,
    created_at: z.string(),
    imported: z.boolean(),
    public: z.boolean(),
    uri: z.string(),
  })
  .meta({ id: 'Bucket' });
export type BucketWire = z.infer<typeof Bucket>;
export const BucketList = z.array(Bucket);

const Scope = {
  org_name: z.string().min(1),
  project_name: z.string().min(1),
  cluster_name: z.string().min(1).default(DEFAULT_BUCKET_CLUSTER),
};
export const BucketScopeQuery = z.object(Scope);
export const BucketListQuery = z.object({ ...Scope, owner: z.string().min(1).optional() });

export const BucketCreate = z.object({ name: BucketName.nullable().default(null), ...Scope });

/** Keys a provider needs (S3-like, Azure or GCP); kept as given and handed out as given. */
export const ProviderCredentials = z.record(z.string(), z.string());

export const BucketImport = z.object({
  name: BucketName,
  provider: BucketProvider,
  provider_bucket_name: z.string().min(1).max(255),
  credentials: ProviderCredentials,
  ...Scope,
});

/** What a holder needs to reach one bucket at its provider. */
export const BucketCredentials = z.object({
  bucket_id: z.string(),
  provider: BucketProvider,
  credentials: ProviderCredentials,
});

export const PersistentCredentials = z
  .object({
    ...Owned,
    read_only: z.boolean(),
    bucket_ids: z.array(z.string()),
    credentials: z.array(BucketCredentials),
  })
  .meta({ id: 'PersistentCredentials' });
export type PersistentCredentialsWire = z.infer<typeof PersistentCredentials>;
export const PersistentCredentialsList = z.array(PersistentCredentials);

export const PersistentCredentialsCreate = z.object({
  name: z.string().min(1, 'Required').max(255).nullable().default(null),
  bucket_ids: z.array(z.string().min(1)).min(1, 'Choose at least one bucket'),
  read_only: z.boolean().default(false),
});

/** The buckets of a project; one bucket is `blob://CLUSTER/ORG/PROJECT/BUCKET`. */
export const blobUri = (cluster: string, org: string, project: string, bucket?: string) =>
  bucket
    ? formatUri('blob', cluster, org, project, bucket)
    : formatUri('blob', cluster, org, project);

/**
 * Orrery's object API (docs/buckets.md): `{buckets_url}/buckets/{id-or-name}/objects[/KEY]`.
 * A key is `/`-separated; "folders" are common prefixes, or empty objects whose key ends in `/`.
 */
export const OBJECT_KEY_MAX_BYTES = 1024;
export const OBJECTS_PAGE_MAX = 1000;
export const OBJECT_KEY_INVALID =
  'Object keys cannot start with "/" or contain empty, "." or ".." segments, backslashes or control characters';

export const BucketObjectListQuery = z.object({
  ...Scope,
  prefix: z.string().default(''),
  /** `/` lists one "folder"; without it every key under the prefix is listed. */
  delimiter: z.literal('/').optional(),
  continuation_token: z.string().min(1).optional(),
  max_keys: z.coerce.number().int().min(1).max(OBJECTS_PAGE_MAX).default(OBJECTS_PAGE_MAX),
});

export const BucketObject = z
  .object({ key: z.string(), size: z.number().int(), last_modified: z.string() })
  .meta({ id: 'BucketObject' });
export type BucketObjectWire = z.infer<typeof BucketObject>;

export const BucketObjectList = z
  .object({
    prefix: z.string(),
    /** Common prefixes, each ending in the delimiter. */
    folders: z.array(z.string()),
    objects: z.array(BucketObject),
    /** Pass back as `continuation_token` for the next page; null on the last one. */
    next_continuation_token: z.string().nullable(),
    /** The caller's action on the bucket: the console is read-only below write. */
    permission: Action,
  })
  .meta({ id: 'BucketObjectList' });
export type BucketObjectListWire = z.infer<typeof BucketObjectList>;

/** What a prefix delete ("folder" delete) removed. */
export const BucketObjectsDeleted = z.object({ deleted: z.number().int() });

/**
 * Why a key cannot be used, or null. Keys stay inside their bucket as paths would: no leading
 * `/`, no `.`/`..` or empty segments (a trailing `/` marks a folder), no control characters.
 */
export function objectKeyError(key: string): string | null {
  const segments = (key.endsWith('/') ? key.slice(0, -1) : key).split('/');
  if (
    // eslint-disable-next-line no-control-regex
    /[\u0000-\u001f\u007f\\]/.test(key) ||
    segments.some((s) => s === '' || s === '.' || s === '..')
  ) {
    return OBJECT_KEY_INVALID;
  }
  if (new TextEncoder().encode(key).length > OBJECT_KEY_MAX_BYTES) {
    return `Object keys are at most ${OBJECT_KEY_MAX_BYTES} bytes`;
  }
  return null;
}
