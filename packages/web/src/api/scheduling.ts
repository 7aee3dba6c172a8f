import type { ClusterQueue, JobScheduling } from '@orrery/contract';
import { useQuery } from '@tanstack/react-query';
import { API, request } from './client';
import { JOB_REFRESH_MS } from './jobs';

/**
 * The scheduler's reads (docs/scheduling.md): why one job waits and where it stands, and a
 * cluster's queue. Their answers stay in wire form (`keepKeys`): the contract's `describeWait`
 * and `formatAmount` read the wire's resource keys (`nvidia_gpu`, `borrowing_limit`).
 */
const enc = encodeURIComponent;
const wire = async <T>(path: string, signal: AbortSignal) =>
  (await request<T>(path, { signal, keepKeys: true })) as unknown as T;

export const schedulingKeys = {
  job: (id: string) => ['jobs', 'scheduling', id] as const,
  queue: (cluster: string) => ['admin', 'queue', cluster] as const,
};

/** Read while the job waits, as often as the job page refreshes the job itself. */
export const useJobScheduling = (id: string, waiting: boolean) =>
  useQuery({
    queryKey: schedulingKeys.job(id),
    queryFn: ({ signal }) => wire<JobScheduling>(`${API.core}/jobs/${enc(id)}/scheduling`, signal),
    enabled: waiting,
    refetchInterval: waiting ? JOB_REFRESH_MS : false,
    retry: false,
  });

/** The queue moves with every admission: read again as often as a job page does. */
export const useClusterQueue = (cluster: string) =>
  useQuery({
    queryKey: schedulingKeys.queue(cluster),
    queryFn: ({ signal }) =>
      wire<ClusterQueue>(`${API.admin}/clusters/${enc(cluster)}/queue`, signal),
    refetchInterval: JOB_REFRESH_MS,
    retry: false,
  });
