import {
  placeKey,
  type Camel,
  type MemberRole,
  type ProjectPlace,
  type ProjectTokenWire,
} from '@orrery/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { API, request } from '../../api/client';

/** A project's tokens (docs/tokens.md); the token itself comes only in the answer to create. */
export type ProjectToken = Camel<ProjectTokenWire>;

const enc = encodeURIComponent;
const tokensPath = (p: ProjectPlace) =>
  `${API.core}/clusters/${enc(p.clusterName)}/orgs/${enc(p.orgName)}/projects/${enc(p.projectName)}/tokens`;
const tokenKey = (p: ProjectPlace) => ['tokens', placeKey(p)] as const;

export const useProjectTokens = (p: ProjectPlace) =>
  useQuery({
    queryKey: tokenKey(p),
    queryFn: ({ signal }) => request<ProjectToken[]>(tokensPath(p), { signal }),
  });

function useTokenMutation<A, R>(p: ProjectPlace, fn: (arg: A) => Promise<R>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: fn,
    onSuccess: () => client.invalidateQueries({ queryKey: tokenKey(p) }),
  });
}

export const useCreateToken = (p: ProjectPlace) =>
  useTokenMutation(p, (body: { name: string; role: MemberRole; expiresAt: string }) =>
    request<ProjectToken & { token: string }>(tokensPath(p), { method: 'POST', body }),
  );

export const useRevokeToken = (p: ProjectPlace) =>
  useTokenMutation(p, (id: string) =>
    request<ProjectToken>(`${tokensPath(p)}/${enc(id)}`, { method: 'DELETE' }),
  );
