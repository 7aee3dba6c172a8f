import type { Camel, OrgQuotaView, ProjectPlace, ProjectQuotaView } from '@orrery/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { API, request } from './client';

/** Resource quotas of organizations and projects on a cluster (docs/quotas.md). */
export type OrgQuota = Camel<OrgQuotaView>;
export type ProjectQuota = Camel<ProjectQuotaView>;

/** A quota as sent (camelCase; the client sends it as the wire's snake_case); null: unlimited. */
export interface QuotaLimitsBody {
  cpu: number | null;
  memory: number | null;
  nvidiaGpu: number | null;
  amdGpu: number | null;
  intelGpu: number | null;
}
export type QuotaBody = QuotaLimitsBody & { borrowingLimit: QuotaLimitsBody };

const enc = encodeURIComponent;
const orgPath = (cluster: string, org: string) =>
  `${API.admin}/clusters/${enc(cluster)}/orgs/${enc(org)}`;
const projectPath = (p: ProjectPlace) =>
  `${orgPath(p.clusterName, p.orgName)}/projects/${enc(p.projectName)}/quota`;

export const quotaKeys = {
  all: ['quotas'] as const,
  org: (cluster: string, org: string) => ['quotas', 'org', cluster, org] as const,
  project: (p: ProjectPlace) =>
    ['quotas', 'project', p.clusterName, p.orgName, p.projectName] as const,
};

export const useOrgQuota = (cluster: string, org: string) =>
  useQuery({
    queryKey: quotaKeys.org(cluster, org),
    queryFn: ({ signal }) => request<OrgQuotaView>(`${orgPath(cluster, org)}/quota`, { signal }),
  });

export const useProjectQuota = (p: ProjectPlace) =>
  useQuery({
    queryKey: quotaKeys.project(p),
    queryFn: ({ signal }) => request<ProjectQuotaView>(projectPath(p), { signal }),
  });

/** A change refreshes every quota shown, and the admin area's list of organizations. */
function useQuotaMutation<A>(fn: (arg: A) => Promise<unknown>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: fn,
    onSuccess: () =>
      Promise.all([
        client.invalidateQueries({ queryKey: quotaKeys.all }),
        client.invalidateQueries({ queryKey: ['admin'] }),
      ]),
  });
}

/** The organization's quota: every field is sent, so what is emptied is cleared. */
export const useSetOrgQuota = (cluster: string, org: string) =>
  useQuotaMutation((p: { jobs: string; quota: QuotaBody }) =>
    request(`${orgPath(cluster, org)}/quota`, {
      method: 'PATCH',
      body: { quota: { totalRunningJobs: p.jobs, ...p.quota } },
    }),
  );

export const useSetProjectQuota = (p: ProjectPlace) =>
  useQuotaMutation((quota: QuotaBody) => request(projectPath(p), { method: 'PUT', body: quota }));
