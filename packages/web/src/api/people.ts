import {
  placeKey,
  type Camel,
  type ClusterRole,
  type ClusterUserWire,
  type MemberRole,
  type OrgRole,
  type OrgUserWire,
  type ProjectPlace,
  type ProjectUserWire,
} from '@orrery/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useForgetPermissions } from './permissions';
import { API, request } from './client';

/** People of organizations, clusters and projects. */
export type OrgUser = Camel<OrgUserWire>;
export type ClusterUser = Camel<ClusterUserWire>;
export type ProjectUser = Camel<ProjectUserWire>;
export interface LookupUser {
  name: string;
  email: string;
}

const enc = encodeURIComponent;
const orgPath = (org: string) => `${API.admin}/orgs/${enc(org)}/users`;
const clusterPath = (cluster: string, org: string) =>
  `${API.admin}/clusters/${enc(cluster)}/orgs/${enc(org)}/users`;
const projectPath = (p: ProjectPlace) =>
  `${API.admin}/clusters/${enc(p.clusterName)}/orgs/${enc(p.orgName)}/projects/${enc(p.projectName)}/users`;
const withInfo = { with_user_info: 'true' };

export const peopleKeys = {
  org: (org: string) => ['people', 'org', org] as const,
  cluster: (cluster: string, org: string) => ['people', 'cluster', cluster, org] as const,
  project: (p: ProjectPlace) => ['people', 'project', placeKey(p)] as const,
};

export const useOrgUsers = (org: string) =>
  useQuery({
    queryKey: peopleKeys.org(org),
    queryFn: ({ signal }) => request<OrgUserWire[]>(orgPath(org), { query: withInfo, signal }),
  });
export const useClusterUsers = (cluster: string, org: string) =>
  useQuery({
    queryKey: peopleKeys.cluster(cluster, org),
    queryFn: ({ signal }) =>
      request<ClusterUserWire[]>(clusterPath(cluster, org), { query: withInfo, signal }),
  });
export const useProjectUsers = (p: ProjectPlace) =>
  useQuery({
    queryKey: peopleKeys.project(p),
    queryFn: ({ signal }) =>
      request<ProjectUserWire[]>(projectPath(p), { query: withInfo, signal }),
  });

/**
 * A mutation that refreshes every people list once it is done, and what the console may offer:
 * a role changed here can change the answers of the permission engine (e.g. one's own).
 */
function usePeopleMutation<A>(fn: (arg: A) => Promise<unknown>) {
  const client = useQueryClient();
  const forget = useForgetPermissions();
  return useMutation({
    mutationFn: fn,
    onSuccess: () => Promise.all([client.invalidateQueries({ queryKey: ['people'] }), forget()]),
  });
}

export interface OrgUserChange {
  userName: string;
  role: OrgRole;
  credits: string | null;
}
export const useAddOrgUser = (org: string) =>
  usePeopleMutation((u: OrgUserChange) =>
    request(orgPath(org), {
      method: 'POST',
      body: { userName: u.userName, role: u.role, balance: { credits: u.credits } },
    }),
  );
export const useUpdateOrgUser = (org: string) =>
  usePeopleMutation((u: OrgUserChange) =>
    request(`${orgPath(org)}/${enc(u.userName)}`, {
      method: 'PUT',
      body: { role: u.role, balance: { credits: u.credits } },
    }),
  );
export const useRemoveOrgUser = (org: string) =>
  usePeopleMutation((name: string) =>
    request(`${orgPath(org)}/${enc(name)}`, { method: 'DELETE' }),
  );

export const useAddClusterUser = (cluster: string, org: string) =>
  usePeopleMutation((u: { userName: string; role: ClusterRole }) =>
    request(clusterPath(cluster, org), { method: 'POST', body: u }),
  );
export const useUpdateClusterUser = (cluster: string, org: string) =>
  usePeopleMutation((u: { userName: string; role: ClusterRole }) =>
    request(`${clusterPath(cluster, org)}/${enc(u.userName)}`, {
      method: 'PUT',
      body: { role: u.role },
    }),
  );
export const useRemoveClusterUser = (cluster: string, org: string) =>
  usePeopleMutation((name: string) =>
    request(`${clusterPath(cluster, org)}/${enc(name)}`, { method: 'DELETE' }),
  );

export const useAddProjectUser = (p: ProjectPlace) =>
  usePeopleMutation((u: { userName: string; role: MemberRole }) =>
    request(projectPath(p), { method: 'POST', body: u }),
  );
export const useUpdateProjectUser = (p: ProjectPlace) =>
  usePeopleMutation((u: { userName: string; role: MemberRole }) =>
    request(`${projectPath(p)}/${enc(u.userName)}`, { method: 'PUT', body: { role: u.role } }),
  );
export const useRemoveProjectUser = (p: ProjectPlace) =>
  usePeopleMutation((name: string) =>
    request(`${projectPath(p)}/${enc(name)}`, { method: 'DELETE' }),
  );

/** Platform users by prefix (the invite dialog); the caller asks only with 2+ characters. */
export const useUserLookup = (query: string, enabled: boolean) =>
  useQuery({
    queryKey: ['people', 'lookup', query],
    queryFn: ({ signal }) =>
      request<LookupUser[]>(`${API.admin}/users`, { query: { lookup: 'true', query }, signal }),
    enabled,
  });
