import type { PlatformConfigWire } from '@orrery/contract';
import { useQuery } from '@tanstack/react-query';
import { API, request } from './client';
import { queryKeys } from './keys';

export const fetchConfig = (anonymous: boolean, signal?: AbortSignal) =>
  request<PlatformConfigWire>(`${API.core}/config`, { anonymous, signal });

/** Before sign-in: issuer, client id, branding and support address. */
export const useAnonymousConfig = () =>
  useQuery({
    queryKey: queryKeys.anonymousConfig,
    queryFn: ({ signal }) => fetchConfig(true, signal),
    staleTime: Infinity,
    retry: 1,
  });

/** With the token: the clusters, organizations and projects this user may use. */
export const useSessionConfig = (enabled: boolean) =>
  useQuery({
    queryKey: queryKeys.sessionConfig,
    queryFn: ({ signal }) => fetchConfig(false, signal),
    enabled,
    retry: 1,
  });
