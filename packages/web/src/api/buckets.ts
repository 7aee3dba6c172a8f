import type { BucketWire, Camel, PersistentCredentialsWire } from '@orrery/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { API, request } from './client';

/** apolo-wire §7: buckets and persistent credentials; the console always names the cluster. */
export type Bucket = Camel<BucketWire>;
export type BucketCredentials = Camel<PersistentCredentialsWire>;

export interface BucketPlace {
  clusterName: string;
  orgName: string;
  projectName: string;
}

const BUCKETS = `${API.core}/buckets/buckets`;
const CREDENTIALS = `${API.core}/buckets/persistent_credentials`;
const scope = (p: BucketPlace) => ({
  cluster_name: p.clusterName,
  org_name: p.orgName,
  project_name: p.projectName,
});

export const bucketKeys = {
  list: (p: BucketPlace) => ['buckets', p.clusterName, p.orgName, p.projectName] as const,
  one: (p: BucketPlace, id: string) => [...bucketKeys.list(p), 'one', id] as const,
  credentials: (p: BucketPlace) =>
    ['bucket-credentials', p.clusterName, p.orgName, p.projectName] as const,
};

export const listBuckets = (p: BucketPlace, signal?: AbortSignal) =>
  request<BucketWire[]>(BUCKETS, { query: scope(p), signal });

export const getBucket = (p: BucketPlace, idOrName: string, signal?: AbortSignal) =>
  request<BucketWire>(`${BUCKETS}/${encodeURIComponent(idOrName)}`, { query: scope(p), signal });

export const createBucket = (p: BucketPlace, name: string | null) =>
  request<BucketWire>(BUCKETS, { method: 'POST', body: { name, ...p } });

export const deleteBucket = (p: BucketPlace, id: string) =>
  request<null>(`${BUCKETS}/${encodeURIComponent(id)}`, { method: 'DELETE', query: scope(p) });

export const listBucketCredentials = (p: BucketPlace, signal?: AbortSignal) =>
  request<PersistentCredentialsWire[]>(CREDENTIALS, { query: scope(p), signal });

export interface CredentialsCreation {
  name: string;
  bucketIds: string[];
  readOnly: boolean;
}

export const createBucketCredentials = (p: BucketPlace, c: CredentialsCreation) =>
  request<PersistentCredentialsWire>(CREDENTIALS, {
    method: 'POST',
    query: scope(p),
    body: c,
  });

/** The spec sets no polling interval for buckets (workloads §9): refetch on focus and change. */
export const useBuckets = (p: BucketPlace) =>
  useQuery({
    queryKey: bucketKeys.list(p),
    queryFn: ({ signal }) => listBuckets(p, signal),
    refetchOnWindowFocus: true,
  });

export const useBucket = (p: BucketPlace, idOrName: string) =>
  useQuery({
    queryKey: bucketKeys.one(p, idOrName),
    queryFn: ({ signal }) => getBucket(p, idOrName, signal),
  });

export const useBucketCredentials = (p: BucketPlace, enabled = true) =>
  useQuery({
    queryKey: bucketKeys.credentials(p),
    queryFn: ({ signal }) => listBucketCredentials(p, signal),
    enabled,
  });

export function useCreateBucket(p: BucketPlace) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (name: string | null) => createBucket(p, name),
    onSuccess: () => client.invalidateQueries({ queryKey: bucketKeys.list(p) }),
  });
}

export function useDeleteBucket(p: BucketPlace) {
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

export function useCreateBucketCredentials(p: BucketPlace) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (c: CredentialsCreation) => createBucketCredentials(p, c),
    onSuccess: () => client.invalidateQueries({ queryKey: bucketKeys.credentials(p) }),
  });
}
