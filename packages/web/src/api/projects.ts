import type { MemberRole, ProjectWire } from '@orrery/contract';
import { useMutation } from '@tanstack/react-query';
import { API, request } from './client';

export interface ProjectKey {
  clusterName: string;
  orgName: string;
  name: string;
}

export async function projectExists(
  { clusterName, orgName, name }: ProjectKey,
  signal?: AbortSignal,
): Promise<boolean> {
  const res = await request<{ exists: boolean }>(`${API.core}/projects/exists`, {
    query: { cluster_name: clusterName, org_name: orgName, name },
    signal,
  });
  return res.exists;
}

export interface ProjectCreation extends ProjectKey {
  isDefault: boolean;
  defaultRole: MemberRole;
}

export const createProject = (input: ProjectCreation) =>
  request<ProjectWire>(`${API.core}/projects`, { method: 'POST', body: input });

export const useCreateProject = () => useMutation({ mutationFn: createProject });
