import { useNavigate } from 'react-router';
import type { OrgWire, Paged } from '@orrery/contract';
import { API, request } from '../../api/client';
import { useAcceptInvite, useDeclineInvite, type Invite } from '../../api/invites';
import { useAccount } from '../../app/session/account';
import { messageOf } from '../../ui/errors';
import { notifyError, notifySuccess, withOutcome } from '../../ui/notify';
import { INVITE_TEXTS } from './texts';

/**
 * Accept adds the user, reloads organizations and clusters, selects the first organization (its
 * cluster follows) and says so (console-shell §4). A failure goes to the common handler.
 */
export function useInviteActions() {
  const accept = useAcceptInvite();
  const decline = useDeclineInvite();
  const { refresh } = useAccount();
  const navigate = useNavigate();
  return {
    pending: accept.isPending || decline.isPending,
    async accept(invite: Invite) {
      try {
        await accept.mutateAsync(invite.id);
        const orgs = await request<Paged<OrgWire>>(`${API.core}/orgs`);
        await refresh();
        const first = orgs.items[0]?.name;
        navigate(first ? `/?org=${encodeURIComponent(first)}` : '/');
        notifySuccess(INVITE_TEXTS.addedToOrg(invite.organizationName));
      } catch (error) {
        notifyError(messageOf(error, INVITE_TEXTS.loadFailed));
      }
    },
    decline: (invite: Invite) =>
      withOutcome(
        () => decline.mutateAsync(invite.id),
        INVITE_TEXTS.declined(invite.organizationName),
        INVITE_TEXTS.loadFailed,
      ),
  };
}
