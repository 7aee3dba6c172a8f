import type { SecretWire, ProjectPlace } from '@orrery/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { API, request } from './client';
import type { Camel } from '@orrery/contract';

export type Secret = Camel<SecretWire>;

export const secretsKey = (s: ProjectPlace) =>
  ['secrets', s.clusterName, s.orgName, s.projectName] as const;

const scopeQuery = (s: ProjectPlace) => ({
  cluster_name: s.clusterName,
  org_name: s.orgName,
  project_name: s.projectName,
});

/** Base64 of the UTF-8 bytes of a text: values are encoded before sending. */
export function encodeSecretValue(text: string): string {
  const bytes = new TextEncoder().encode(text);
  let binary = '';
  // Chunks keep `fromCharCode` below the engine's argument limit on large values.
  for (let i = 0; i < bytes.length; i += 0x8000) {
    binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  }
  return btoa(binary);
}

export const listSecrets = (scope: ProjectPlace, signal?: AbortSignal) =>
  request<SecretWire[]>(`${API.core}/secrets`, { query: scopeQuery(scope), signal });

export interface SecretCreation {
  scope: ProjectPlace;
  key: string;
  /** The plain text; encoded here. */
  value: string;
}

export const createSecret = ({ scope, key, value }: SecretCreation) =>
  request<SecretWire>(`${API.core}/secrets`, {
    method: 'POST',
    body: { ...scope, key, value: encodeSecretValue(value) },
  });

export const deleteSecret = ({ scope, key }: { scope: ProjectPlace; key: string }) =>
  request<null>(`${API.core}/secrets/${encodeURIComponent(key)}`, {
    method: 'DELETE',
    query: scopeQuery(scope),
  });

export const useSecrets = (scope: ProjectPlace | null) =>
  useQuery({
    queryKey: scope ? secretsKey(scope) : ['secrets', null],
    queryFn: ({ signal }) => listSecrets(scope as ProjectPlace, signal),
    enabled: !!scope,
  });

export function useCreateSecret() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: createSecret,
    onSuccess: (_data, { scope }) => client.invalidateQueries({ queryKey: secretsKey(scope) }),
  });
}

export function useDeleteSecret() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: deleteSecret,
    onSuccess: (_data, { scope }) => client.invalidateQueries({ queryKey: secretsKey(scope) }),
  });
}
