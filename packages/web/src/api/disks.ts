import type { Camel, DiskWire, ProjectPlace } from '@orrery/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { API, request } from './client';

/** The disk API; the console always names the cluster it works in. */
export type Disk = Camel<DiskWire>;

const DISKS = `${API.core}/disk`;
const scope = (p: ProjectPlace) => ({
  cluster_name: p.clusterName,
  org_name: p.orgName,
  project_name: p.projectName,
});

export const diskKeys = {
  list: (p: ProjectPlace) => ['disks', p.clusterName, p.orgName, p.projectName] as const,
};

export const listDisks = (p: ProjectPlace, signal?: AbortSignal) =>
  request<DiskWire[]>(DISKS, { query: scope(p), signal });

export interface DiskCreation {
  storage: number;
  lifeSpan: number | null;
  name: string | null;
}

export const createDisk = (p: ProjectPlace, d: DiskCreation) =>
  request<DiskWire>(DISKS, { method: 'POST', body: { ...d, ...p } });

export const deleteDisk = (p: ProjectPlace, id: string) =>
  request<null>(`${DISKS}/${encodeURIComponent(id)}`, { method: 'DELETE', query: scope(p) });

/**
 * Disks are not polled, so the list refreshes when the
 * window regains focus and after every change made here.
 */
export const useDisks = (p: ProjectPlace | null) =>
  useQuery({
    queryKey: p ? diskKeys.list(p) : ['disks', 'none'],
    queryFn: ({ signal }) => listDisks(p!, signal),
    enabled: !!p,
    refetchOnWindowFocus: true,
  });

export function useCreateDisk(p: ProjectPlace) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (d: DiskCreation) => createDisk(p, d),
    onSuccess: () => client.invalidateQueries({ queryKey: diskKeys.list(p) }),
  });
}

export function useDeleteDisk(p: ProjectPlace) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => deleteDisk(p, id),
    onSuccess: () => client.invalidateQueries({ queryKey: diskKeys.list(p) }),
  });
}
