import type { InviteWire, OrgRole } from '@orrery/contract';
import type { Camel } from '@orrery/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { API, request } from './client';
import { queryKeys } from './keys';

/** Invitations to organizations. */
export type Invite = Camel<InviteWire>;

const INVITES = `${API.admin}/invites`;
const one = (id: string) => `${INVITES}/${encodeURIComponent(id)}`;
export const inviteKeys = {
  /** The banner and the invitations page share one request. */
  incoming: queryKeys.invitesPending,
  one: (id: string) => ['invites', 'one', id] as const,
  ofOrg: (org: string) => ['invites', 'org', org] as const,
};

export const useIncomingInvites = () =>
  useQuery({
    queryKey: inviteKeys.incoming,
    queryFn: ({ signal }) => request<InviteWire[]>(`${INVITES}/incoming`, { signal }),
  });

/** Pending invitations for the side menu's banner. */
export function usePendingInviteCount(): number {
  const invites = useIncomingInvites();
  return (invites.data ?? []).filter((i) => i.status === 'pending').length;
}

export const useInvite = (id: string) =>
  useQuery({
    queryKey: inviteKeys.one(id),
    queryFn: ({ signal }) => request<InviteWire>(one(id), { signal }),
    retry: false,
  });

export const useOrgInvites = (org: string, enabled: boolean) =>
  useQuery({
    queryKey: inviteKeys.ofOrg(org),
    queryFn: ({ signal }) =>
      request<InviteWire[]>(`${API.admin}/orgs/${encodeURIComponent(org)}/invites`, { signal }),
    enabled,
  });

/** Every change to an invite touches the lists and the banner. */
function useInvitesMutation<A>(fn: (arg: A) => Promise<unknown>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: fn,
    onSuccess: () => client.invalidateQueries({ queryKey: ['invites'] }),
  });
}

export const useAcceptInvite = () =>
  useInvitesMutation((id: string) => request<InviteWire>(`${one(id)}/accept`, { method: 'POST' }));
export const useDeclineInvite = () =>
  useInvitesMutation((id: string) => request<InviteWire>(`${one(id)}/decline`, { method: 'POST' }));
export const useCreateInvite = () =>
  useInvitesMutation((p: { email: string; roleName: OrgRole; orgName: string }) =>
    request<InviteWire>(INVITES, {
      method: 'POST',
      body: { ...p, origin: window.location.origin },
    }),
  );
export const useResendInvite = () =>
  useInvitesMutation((p: { id: string; orgName: string }) =>
    request<InviteWire>(`${one(p.id)}/resend`, {
      method: 'POST',
      body: { orgName: p.orgName, origin: window.location.origin },
    }),
  );
export const useRemoveInvite = () =>
  useInvitesMutation((id: string) => request<null>(one(id), { method: 'DELETE' }));
