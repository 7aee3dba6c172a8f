import type {
  BucketObjectListWire,
  BucketObjectWire,
  BucketWire,
  Camel,
  PersistentCredentialsWire,
  ProjectPlace,
} from '@orrery/contract';
import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { API, buildUrl, request } from './client';
import { refreshAfterChange } from './refresh';
import { putFile, type UploadOptions } from './upload';

/** Buckets and persistent credentials; the console always names the cluster. */
export type Bucket = Camel<BucketWire>;
export type BucketCredentials = Camel<PersistentCredentialsWire>;

const BUCKETS = `${API.core}/buckets/buckets`;
const CREDENTIALS = `${API.core}/buckets/persistent_credentials`;
const scope = (p: ProjectPlace) => ({
  cluster_name: p.clusterName,
  org_name: p.orgName,
  project_name: p.projectName,
});

export const bucketKeys = {
  list: (p: ProjectPlace) => ['buckets', p.clusterName, p.orgName, p.projectName] as const,
  one: (p: ProjectPlace, id: string) => [...bucketKeys.list(p), 'one', id] as const,
  credentials: (p: ProjectPlace) =>
    ['bucket-credentials', p.clusterName, p.orgName, p.projectName] as const,
  objects: (p: ProjectPlace, bucket: string) =>
    ['bucket-objects', p.clusterName, p.orgName, p.projectName, bucket] as const,
  folder: (p: ProjectPlace, bucket: string, prefix: string) =>
    [...bucketKeys.objects(p, bucket), prefix] as const,
};

export const listBuckets = (p: ProjectPlace, signal?: AbortSignal) =>
  request<BucketWire[]>(BUCKETS, { query: scope(p), signal });

export const getBucket = (p: ProjectPlace, idOrName: string, signal?: AbortSignal) =>
  request<BucketWire>(`${BUCKETS}/${encodeURIComponent(idOrName)}`, { query: scope(p), signal });

export const createBucket = (p: ProjectPlace, name: string | null) =>
  request<BucketWire>(BUCKETS, { method: 'POST', body: { name, ...p } });

export const deleteBucket = (p: ProjectPlace, id: string) =>
  request<null>(`${BUCKETS}/${encodeURIComponent(id)}`, { method: 'DELETE', query: scope(p) });

export const listBucketCredentials = (p: ProjectPlace, signal?: AbortSignal) =>
  request<PersistentCredentialsWire[]>(CREDENTIALS, { query: scope(p), signal });

export interface CredentialsCreation {
  name: string;
  bucketIds: string[];
  readOnly: boolean;
}

export const createBucketCredentials = (p: ProjectPlace, c: CredentialsCreation) =>
  request<PersistentCredentialsWire>(CREDENTIALS, {
    method: 'POST',
    query: scope(p),
    body: c,
  });

/** Buckets are not polled: refetched on focus and after a change. */
export const useBuckets = (p: ProjectPlace) =>
  useQuery({
    queryKey: bucketKeys.list(p),
    queryFn: ({ signal }) => listBuckets(p, signal),
    refetchOnWindowFocus: true,
  });

export const useBucket = (p: ProjectPlace, idOrName: string) =>
  useQuery({
    queryKey: bucketKeys.one(p, idOrName),
    queryFn: ({ signal }) => getBucket(p, idOrName, signal),
  });

export const useBucketCredentials = (p: ProjectPlace, enabled = true) =>
  useQuery({
    queryKey: bucketKeys.credentials(p),
    queryFn: ({ signal }) => listBucketCredentials(p, signal),
    enabled,
  });

export function useCreateBucket(p: ProjectPlace) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (name: string | null) => createBucket(p, name),
    onSuccess: () => client.invalidateQueries({ queryKey: bucketKeys.list(p) }),
  });
}

export function useDeleteBucket(p: ProjectPlace) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => deleteBucket(p, id),
    onSuccess: () =>
      Promise.all([
        client.invalidateQueries({ queryKey: bucketKeys.list(p) }),
        client.invalidateQueries({ queryKey: bucketKeys.credentials(p) }),
      ]),
  });
}

export function useCreateBucketCredentials(p: ProjectPlace) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (c: CredentialsCreation) => createBucketCredentials(p, c),
    onSuccess: () => client.invalidateQueries({ queryKey: bucketKeys.credentials(p) }),
  });
}

/**
 * Orrery's object API (docs/buckets.md). `bucket` is the bucket's name, or its id when it has
 * none: the bucket's permission URI names it so, which makes a grant on one bucket work here.
 */
export type BucketObject = Camel<BucketObjectWire>;
export type BucketObjectPage = Camel<BucketObjectListWire>;

const objectsUrl = (bucket: string) => `${BUCKETS}/${encodeURIComponent(bucket)}/objects`;
/** Every segment of the key encoded on its own, so that `/` still separates them. */
const objectUrl = (bucket: string, key: string) =>
  `${objectsUrl(bucket)}/${key.split('/').map(encodeURIComponent).join('/')}`;

/** One page of a "folder": the prefixes and objects right below `prefix`. */
export const listObjects = (
  p: ProjectPlace,
  bucket: string,
  prefix: string,
  continuationToken?: string,
  signal?: AbortSignal,
) =>
  request<BucketObjectListWire>(objectsUrl(bucket), {
    query: { ...scope(p), prefix, delimiter: '/', continuation_token: continuationToken },
    signal,
  });

/** A GET link of an object (open in a new tab, previews, download): the token rides along. */
export const objectLink = (
  p: ProjectPlace,
  bucket: string,
  key: string,
  token: string | null | undefined,
) => buildUrl(objectUrl(bucket, key), { ...scope(p), token: token ?? undefined });

export const uploadObject = (
  p: ProjectPlace,
  bucket: string,
  key: string,
  file: Blob,
  options: UploadOptions,
) => putFile(buildUrl(objectUrl(bucket, key), scope(p)), file, options);

/** A folder is an empty object whose key ends in `/`. */
export const addFolder = (p: ProjectPlace, bucket: string, prefix: string) =>
  request<BucketObjectWire>(objectUrl(bucket, `${prefix}/`), { method: 'PUT', query: scope(p) });

/** Deletes an object, or with a key ending in `/` a folder and everything below it. */
export const deleteObjects = (p: ProjectPlace, bucket: string, key: string) =>
  request<{ deleted: number }>(objectUrl(bucket, key), { method: 'DELETE', query: scope(p) });

/** A folder's pages, a thousand entries each; the next one loads when asked. */
export const useBucketFolder = (p: ProjectPlace, bucket: string, prefix: string) =>
  useInfiniteQuery({
    queryKey: bucketKeys.folder(p, bucket, prefix),
    queryFn: ({ pageParam, signal }) => listObjects(p, bucket, prefix, pageParam, signal),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.nextContinuationToken ?? undefined,
    refetchOnWindowFocus: true,
  });

/** A change to a bucket's objects; every cached folder of the bucket is refetched after it. */
export function useObjectsMutation<V>(
  p: ProjectPlace,
  bucket: string,
  fn: (v: V) => Promise<unknown>,
) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: fn,
    onSuccess: () => refreshAfterChange(client, bucketKeys.objects(p, bucket)),
  });
}
