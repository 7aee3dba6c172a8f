import { z } from 'zod';
import { formatUri } from './uris.js';

/**
 * Buckets and persistent credentials (apolo-wire §7, base `buckets_url` = `/api/v1/buckets`;
 * workloads §2, §3, §5, §7). Object data goes straight to the provider, never through Orrery.
 * `cluster_name` is ours and optional, because the CLI never sends it.
 */
export const BUCKET_NAME = /^[a-z](-?[a-z0-9])*$/;
export const BUCKET_NAME_MIN = 3;
export const BUCKET_NAME_MAX = 40;
export const BUCKET_NAME_INVALID = 'Invalid name';
export const BUCKET_NAME_LENGTH = `Bucket name must be ${BUCKET_NAME_MIN} to ${BUCKET_NAME_MAX} characters`;
export const DEFAULT_BUCKET_CLUSTER = 'default';
export const BUCKETS_NEED_S3 = 'Buckets need an S3 endpoint: set ORRERY_S3_ENDPOINT';
export const GCP_BUCKET_NOT_VIEWABLE = 'Buckets created with "gcp" cannot be viewed in the web UI';
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

export const Bucket = z
  .object({
    id: z.string(),
    name: z.string().nullable(),
    owner: z.string(),
    org_name: z.string(),
    project_name: z.string(),
    cluster_name: z.string(),
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
    id: z.string(),
    name: z.string().nullable(),
    owner: z.string(),
    org_name: z.string(),
    project_name: z.string(),
    cluster_name: z.string(),
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
