import type { UserWire } from '@orrery/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { API, request } from './client';
import { queryKeys } from './keys';

export const USER_INCLUDES = ['orgs', 'clusters', 'system_role', 'projects'] as const;

export const fetchUser = (username: string, signal?: AbortSignal) =>
  request<UserWire>(`${API.core}/users/${encodeURIComponent(username)}`, {
    query: { include: USER_INCLUDES },
    signal,
  });

export const useProfile = (username: string | null) =>
  useQuery({
    queryKey: queryKeys.user(username ?? ''),
    queryFn: ({ signal }) => fetchUser(username as string, signal),
    enabled: !!username,
    retry: 1,
  });

export interface TermsAcceptance {
  username: string;
  name: string;
  email: string;
}

export const acceptTerms = ({ username, name, email }: TermsAcceptance) =>
  request(`${API.core}/users/${encodeURIComponent(username)}/profile`, {
    method: 'PUT',
    body: { termsAccepted: true, name, email },
  });

export const useAcceptTerms = () => {
  const client = useQueryClient();
  return useMutation({
    mutationFn: acceptTerms,
    onSuccess: (_data, { username }) =>
      client.invalidateQueries({ queryKey: queryKeys.user(username) }),
  });
};

/** Mails the signed-in user a fresh verification link (at most one a minute, says the server). */
export const useResendVerification = () =>
  useMutation({
    mutationFn: (username: string) =>
      request(`${API.core}/users/${encodeURIComponent(username)}/verification-mail`, {
        method: 'POST',
      }),
  });
