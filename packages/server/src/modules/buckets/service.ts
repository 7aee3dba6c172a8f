import { randomBytes, randomUUID } from 'node:crypto';
import type { S3Client } from '@aws-sdk/client-s3';
import { bucketTaken, credentialsTaken, type BucketProvider } from '@orrery/contract';
import type { AppContext } from '../../context.js';
import type { Principal } from '../../auth/principal.js';
import { HttpError, conflict, forbidden, notFound } from '../../http/errors.js';
import { allows, type Grant } from '../../auth/permissions.js';
import type { S3Directory } from '../s3/routes.js';
import { bucketStoreOf } from '../s3/service.js';
import { S3_REGION, s3EndpointOf, s3SecretOf } from '../s3/keys.js';
import type { ObjectStore, S3Settings } from '../../blob/s3-objects.js';
import { projectIdAt } from '../projects/service.js';
import { seal, unseal } from '../secrets/key.js';
import { bucketUriOf } from './scope.js';
import {
  bucketByIdOrName,
  bucketsByIds,
  bucketsIn,
  credentialsById,
  credentialsByIdOrName,
  credentialsIn,
  deleteBucketRow,
  deleteCredentialsRow,
  insertBucket,
  insertCredentials,
  type BucketView,
  type ProjectPlace,
} from './store.js';

export { bucketsIn, credentialsByIdOrName, credentialsIn };

/** A project's bucket by its id or name; 404 when there is none. */
export async function bucketAt(db: BucketContext['db'], p: ProjectPlace, idOrName: string) {
  const found = await bucketByIdOrName(db, p, idOrName);
  if (!found) throw notFound(`Bucket ${idOrName} not found`);
  return found;
}

/** Deletes persistent credentials: their keys stop working at once. */
export const deleteCredentials = (db: BucketContext['db'], id: string) =>
  deleteCredentialsRow(db, id);

export interface BucketContext extends Pick<AppContext, 'db' | 'config'> {
  /** Key sealing the credentials of imported buckets (the secrets key). */
  sealKey: Buffer;
}

// The AWS SDK loads on first use: a server without S3 never pays its start-up cost.
export const sdk = () =>
  Promise.all([import('@aws-sdk/client-s3'), import('../../blob/s3-objects.js')]);
const clients = new WeakMap<S3Settings, S3Client>();
export const clientOf = async (s3: S3Settings) => {
  if (!clients.has(s3)) clients.set(s3, (await sdk())[1].s3Client(s3));
  return clients.get(s3)!;
};

/**
 * AWS when the endpoint is Amazon's, else a self-hosted S3 (MinIO, s3rver, Ceph… and Orrery's own
 * embedded endpoint, without one).
 */
export const providerOf = (s3: S3Settings | undefined): BucketProvider =>
  s3 && /(^|\.)amazonaws\.com(\.cn)?$/.test(new URL(s3.endpoint).hostname) ? 'aws' : 'minio';

/** A valid, unique S3 bucket name: org, project and name, then 8 random hex characters. */
export function providerBucketName(p: ProjectPlace, name: string | null) {
  const base = `${p.org}-${p.project}-${name ?? 'bucket'}`
    .toLowerCase()
    .replace(/[^a-z0-9-]+/g, '-')
    .slice(0, 54)
    .replace(/-+$/, '');
  return `${base}-${randomBytes(4).toString('hex')}`;
}

type BucketFields = Omit<
  Parameters<typeof insertBucket>[1],
  'id' | 'clusterName' | 'orgName' | 'projectName' | 'ownerId'
>;

/** Records a bucket of the project under a new id; 404 without the project, 409 for a taken name. */
async function recordBucket(
  ctx: BucketContext,
  caller: Principal,
  p: ProjectPlace,
  fields: (id: string) => BucketFields,
) {
  await projectIdAt(ctx.db, p);
  const id = `bucket-${randomUUID()}`;
  const f = fields(id);
  const row = await insertBucket(ctx.db, {
    id,
    clusterName: p.cluster,
    orgName: p.org,
    projectName: p.project,
    ownerId: caller.id,
    ...f,
  });
  if (!row) throw conflict(bucketTaken(f.name ?? id), 'name');
  return row;
}

/** Records the bucket, then creates it at the provider (the record goes if that fails). */
export async function createBucket(
  ctx: BucketContext,
  caller: Principal,
  p: ProjectPlace,
  name: string | null,
) {
  const s3 = ctx.config.s3;
  const row = await recordBucket(ctx, caller, p, () => ({
    name,
    provider: providerOf(s3),
    providerBucketName: providerBucketName(p, name),
  }));
  try {
    if (!s3) await bucketStoreOf(ctx.config.dataDir).create(row.providerBucketName);
    else {
      const [{ CreateBucketCommand }] = await sdk();
      await (await clientOf(s3)).send(new CreateBucketCommand({ Bucket: row.providerBucketName }));
    }
  } catch (e) {
    await deleteBucketRow(ctx.db, row.id);
    throw e;
  }
  return row;
}

/** Records a bucket that lives elsewhere, with the credentials its provider gave. */
export async function importBucket(
  ctx: BucketContext,
  caller: Principal,
  p: ProjectPlace,
  b: { name: string; provider: BucketProvider; bucket: string; credentials: object },
) {
  return recordBucket(ctx, caller, p, (id) => ({
    name: b.name,
    provider: b.provider,
    providerBucketName: b.bucket,
    imported: true,
    sealedCredentials: seal(ctx.sealKey, Buffer.from(JSON.stringify(b.credentials)), id),
  }));
}

/**
 * Deletes every object whose key starts with `prefix`, a batch at a time, and counts them. It
 * lists from the start each time rather than paging, because the listing shrinks as it goes.
 */
export async function deleteUnder(objects: ObjectStore, prefix: string) {
  let deleted = 0;
  for (let batch = await objects.first(prefix, 1000); batch.length;) {
    await objects.deleteMany(batch.map((o) => o.key));
    deleted += batch.length;
    batch = await objects.first(prefix, 1000);
  }
  return deleted;
}

/**
 * Deletes a bucket Orrery made, with everything in it, at the provider; an imported bucket is
 * only forgotten. Credentials lose the bucket (rows cascade).
 */
export async function deleteBucket(ctx: BucketContext, b: BucketView) {
  if (!b.imported && !ctx.config.s3) {
    await bucketStoreOf(ctx.config.dataDir).drop(b.providerBucketName);
  } else if (!b.imported && ctx.config.s3) {
    const [{ DeleteBucketCommand }, { isNotFound, Objects }] = await sdk();
    const client = await clientOf(ctx.config.s3);
    try {
      await deleteUnder(new Objects(client, b.providerBucketName), '');
      await client.send(new DeleteBucketCommand({ Bucket: b.providerBucketName }));
    } catch (e) {
      if (!isNotFound(e)) throw e;
    }
  }
  await deleteBucketRow(ctx.db, b.id);
}

/**
 * What a holder needs to reach a bucket at its provider; on the
 * embedded endpoint, the keys of the credentials `credentialsId` (none without them).
 */
export function providerCredentials(
  ctx: BucketContext,
  b: BucketView,
  credentialsId?: string,
): Record<string, string> {
  if (b.imported && b.sealedCredentials) {
    const given = JSON.parse(unseal(ctx.sealKey, b.sealedCredentials, b.id).toString('utf8'));
    return { bucket_name: b.providerBucketName, ...(given as Record<string, string>) };
  }
  const s3 = ctx.config.s3;
  if (!s3) {
    const where = {
      bucket_name: b.providerBucketName,
      endpoint_url: s3EndpointOf(ctx.config.publicUrl),
      region_name: S3_REGION,
    };
    if (!credentialsId) return where;
    return {
      ...where,
      access_key_id: credentialsId,
      secret_access_key: s3SecretOf(ctx.sealKey, credentialsId),
    };
  }
  const where = {
    bucket_name: b.providerBucketName,
    endpoint_url: s3.endpoint,
    region_name: s3.region,
  };
  // Credentials made while sharing was allowed lose their keys once it is not.
  if (!s3.shareKeys) return where;
  return { ...where, access_key_id: s3.accessKeyId, secret_access_key: s3.secretAccessKey };
}

/** Keys of provider credentials that say where a bucket is, and open nothing. */
const LOCATION_KEYS = new Set(['bucket_name', 'endpoint_url', 'region_name', 'storage_endpoint']);

/** Where a bucket is, as credentials show it after their creation: no key, no token. */
export const locationOf = (ctx: BucketContext, b: BucketView): Record<string, string> =>
  Object.fromEntries(
    Object.entries(providerCredentials(ctx, b)).filter(([k]) => LOCATION_KEYS.has(k)),
  );

/**
 * Whether credentials to this bucket can be held to reading: only the embedded endpoint's own
 * keys are. An imported bucket's keys and an external store's key pair write whatever
 * `read_only` says, so only those who may write the bucket get them.
 */
const keysReadOnly = (ctx: BucketContext, b: BucketView) => !b.imported && !ctx.config.s3;

const writeNeeded = (b: BucketView, readOnly: boolean) =>
  readOnly
    ? `Credentials to bucket ${b.name ?? b.id} carry keys that can write it (its provider's, not ` +
      `Orrery's own), so they need write access to it`
    : `Read-write credentials need write access to bucket ${b.name ?? b.id}; ask for read-only ones`;

export const KEYS_NOT_SHARED =
  'Credentials to buckets on this endpoint would carry its own key pair, which opens every bucket ' +
  'there, other projects’ included. Set ORRERY_S3_SHARE_KEYS=true only for a single-tenant deployment.';

/**
 * Makes credentials owned by the caller. They act with the owner's rights at each request (the
 * embedded endpoint checks them), and may not open more than the owner holds now: each bucket
 * must be readable, and writable unless the credentials are read-only and can be held to that.
 */
export async function createCredentials(
  ctx: BucketContext,
  caller: Principal,
  grants: Grant[],
  p: ProjectPlace,
  c: { name: string | null; bucketIds: string[]; readOnly: boolean },
) {
  await projectIdAt(ctx.db, p);
  const ids = [...new Set(c.bucketIds)];
  const found = (await bucketsByIds(ctx.db, ids)).filter(
    (b) =>
      b.clusterName === p.cluster &&
      b.orgName === p.org &&
      b.projectName === p.project &&
      allows(grants, bucketUriOf(b), 'read'),
  );
  const missing = ids.find((id) => !found.some((b) => b.id === id));
  if (missing) throw notFound(`Bucket ${missing} not found`);
  for (const b of found) {
    const readOnly = c.readOnly && keysReadOnly(ctx, b);
    if (!readOnly && !allows(grants, bucketUriOf(b), 'write')) {
      throw forbidden(writeNeeded(b, c.readOnly));
    }
  }
  // The embedded endpoint gives each set of credentials keys of its own; an external one has
  // only its own key pair.
  if (found.some((b) => !b.imported) && ctx.config.s3 && !ctx.config.s3.shareKeys) {
    throw new HttpError('unprocessable', KEYS_NOT_SHARED, [
      { path: 'bucket_ids', message: KEYS_NOT_SHARED },
    ]);
  }
  const id = `bucket-credentials-${randomUUID()}`;
  const row = await insertCredentials(
    ctx.db,
    {
      id,
      clusterName: p.cluster,
      orgName: p.org,
      projectName: p.project,
      name: c.name,
      readOnly: c.readOnly,
      ownerId: caller.id,
    },
    ids,
  );
  if (!row) throw conflict(credentialsTaken(c.name ?? id), 'name');
  return row;
}

/** What the embedded S3 endpoint needs of this module: the credentials and buckets a key opens. */
export const s3Directory = (db: BucketContext['db']): S3Directory => ({
  credentials: (id) => credentialsById(db, id),
  buckets: async (ids) => (await bucketsByIds(db, ids)).map((b) => ({ ...b, uri: bucketUriOf(b) })),
});
