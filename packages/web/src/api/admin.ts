import type {
  AdminOrgWire,
  Camel,
  ClusterOrgWire,
  ClusterWire,
  HostLimits,
  NodePoolStatusWire,
  SystemUserWire,
} from '@orrery/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { API, request } from './client';
import { queryKeys } from './keys';
import type { QuotaBody } from './quotas';

/** The admin area's calls. */
export type SystemUser = Camel<SystemUserWire>;
export type AdminOrg = Camel<AdminOrgWire>;
export type ClusterOrg = Camel<ClusterOrgWire>;
export type NodePoolStatus = Camel<NodePoolStatusWire>;
export type Preset = Camel<ClusterWire['resource_presets'][number]>;
export interface AdminCluster {
  name: string;
  location: string | null;
  orgsCount: number;
}
export interface StorageVolume {
  name: string;
  creditsPerHourPerGb: string;
}

const enc = encodeURIComponent;
const cluster = (c: string) => `${API.admin}/clusters/${enc(c)}`;
const presets = (c: string) => `${API.core}/clusters/${enc(c)}/orchestrator/resource_presets`;

export const adminKeys = {
  users: ['admin', 'users'] as const,
  clusters: ['admin', 'clusters'] as const,
  orgs: ['admin', 'orgs'] as const,
  pools: (c: string) => ['admin', 'pools', c] as const,
  presets: (c: string) => ['admin', 'presets', c] as const,
  clusterOrgs: (c: string) => ['admin', 'cluster-orgs', c] as const,
  volumes: (c: string) => ['admin', 'volumes', c] as const,
  diskPrice: (c: string) => ['admin', 'disk-price', c] as const,
  hostLimits: ['admin', 'host-limits'] as const,
};

const get =
  <T>(path: string) =>
  ({ signal }: { signal: AbortSignal }) =>
    request<T>(path, { signal });

export const useSystemUsers = () =>
  useQuery({ queryKey: adminKeys.users, queryFn: get<SystemUserWire[]>(`${API.admin}/users`) });
export const useAdminClusters = () =>
  useQuery({ queryKey: adminKeys.clusters, queryFn: get<AdminCluster[]>(`${API.admin}/clusters`) });
/** What this installation cannot do, as the server found its host at start. */
export const useHostLimits = () =>
  useQuery({
    queryKey: adminKeys.hostLimits,
    queryFn: get<HostLimits>(`${API.admin}/host/limits`),
  });
export const useAdminOrgs = () =>
  useQuery({ queryKey: adminKeys.orgs, queryFn: get<AdminOrgWire[]>(`${API.admin}/orgs`) });
export const useNodePools = (c: string) =>
  useQuery({
    queryKey: adminKeys.pools(c),
    queryFn: get<NodePoolStatusWire[]>(`${cluster(c)}/node_pools`),
  });
export const usePresets = (c: string) =>
  useQuery({
    queryKey: adminKeys.presets(c),
    queryFn: get<ClusterWire['resource_presets']>(presets(c)),
  });
export const useClusterOrgs = (c: string) =>
  useQuery({
    queryKey: adminKeys.clusterOrgs(c),
    queryFn: get<ClusterOrgWire[]>(`${cluster(c)}/orgs`),
  });
export const useStorageVolumes = (c: string) =>
  useQuery({
    queryKey: adminKeys.volumes(c),
    queryFn: get<StorageVolume[]>(`${cluster(c)}/storage_volumes`),
  });

/** The price of the cluster's disks, credits per GB-day. */
export const useDiskPrice = (c: string) =>
  useQuery({
    queryKey: adminKeys.diskPrice(c),
    queryFn: get<{ creditsPerDayPerGb: string }>(`${cluster(c)}/disk_price`),
  });

/**
 * A change in the admin area refreshes the area and the signed-in configuration, which carries
 * the presets and pools every other page reads.
 */
function useAdminMutation<A>(fn: (arg: A) => Promise<unknown>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: fn,
    onSuccess: () =>
      Promise.all([
        client.invalidateQueries({ queryKey: ['admin'] }),
        client.invalidateQueries({ queryKey: queryKeys.sessionConfig }),
      ]),
  });
}

export const useCreateSystemUser = () =>
  useAdminMutation((u: { name: string; email: string; role: 'admin' | 'user' }) =>
    request(`${API.admin}/users`, { method: 'POST', body: u }),
  );
export const useSetSystemRole = () =>
  useAdminMutation((u: { name: string; role: 'admin' | 'user' }) =>
    request(`${API.admin}/users/${enc(u.name)}`, { method: 'PUT', body: { role: u.role } }),
  );
export const useDeleteSystemUser = () =>
  useAdminMutation((name: string) =>
    request(`${API.admin}/users/${enc(name)}`, { method: 'DELETE' }),
  );

/** The preset as sent: snake_case wire fields, since the form builds them from the contract. */
export type PresetBody = Record<string, unknown>;
export const useSavePreset = (c: string) =>
  useAdminMutation((p: { original: string | null; body: PresetBody }) =>
    p.original
      ? request(`${presets(c)}/${enc(p.original)}`, { method: 'PUT', body: p.body })
      : request(presets(c), { method: 'POST', body: p.body }),
  );
export const useDeletePreset = (c: string) =>
  useAdminMutation((name: string) => request(`${presets(c)}/${enc(name)}`, { method: 'DELETE' }));

export const usePatchNodePool = (c: string) =>
  useAdminMutation(
    (p: { name: string; idleSize: string; cpuMinWatts: string; cpuMaxWatts: string }) =>
      request(`${cluster(c)}/node_pools/${enc(p.name)}`, {
        method: 'PATCH',
        body: { idleSize: p.idleSize, cpuMinWatts: p.cpuMinWatts, cpuMaxWatts: p.cpuMaxWatts },
      }),
  );

export const useSaveClusterOrg = (c: string) =>
  useAdminMutation((p: { orgName: string; jobs: string; quota: QuotaBody; isNew: boolean }) => {
    // Every field is sent: an emptied one is cleared (null), none is left as it was.
    const quota = { totalRunningJobs: p.jobs, ...p.quota };
    return p.isNew
      ? request(`${cluster(c)}/orgs`, { method: 'POST', body: { orgName: p.orgName, quota } })
      : request(`${cluster(c)}/orgs/${enc(p.orgName)}`, { method: 'PUT', body: { quota } });
  });

export const useSetVolumeCredits = (c: string) =>
  useAdminMutation((p: { volume: string; value: string }) =>
    request(`${cluster(c)}/storage_volumes/${enc(p.volume)}`, {
      method: 'PATCH',
      body: { creditsPerHourPerGb: p.value },
    }),
  );

export const useSetDiskPrice = (c: string) =>
  useAdminMutation((value: string) =>
    request(`${cluster(c)}/disk_price`, { method: 'PATCH', body: { creditsPerDayPerGb: value } }),
  );

/** `PATCH orgs/{name}/balance`: set the credits (empty: unlimited) or add to them. */
export const useSetOrgBalance = () =>
  useAdminMutation((p: { org: string; credits?: string | null; additionalCredits?: string }) =>
    request(`${API.admin}/orgs/${enc(p.org)}/balance`, {
      method: 'PATCH',
      body:
        p.additionalCredits !== undefined
          ? { additionalCredits: p.additionalCredits }
          : { credits: p.credits ?? null },
    }),
  );
