import type { OrgWire } from '@orrery/contract';
import { useMutation } from '@tanstack/react-query';
import { API, ApiError, request } from './client';

/** A 403 means the organization exists but is not ours to see: the name is taken. */
export async function orgExists(name: string, signal?: AbortSignal): Promise<boolean> {
  try {
    const res = await request<{ exists: boolean }>(
      `${API.core}/orgs/${encodeURIComponent(name)}/exists`,
      { signal },
    );
    return res.exists;
  } catch (error) {
    if (error instanceof ApiError && error.status === 403) return true;
    throw error;
  }
}

export const createOrg = (name: string) =>
  request<OrgWire>(`${API.core}/orgs`, { method: 'POST', body: { name } });

export const useCreateOrg = () => useMutation({ mutationFn: createOrg });
