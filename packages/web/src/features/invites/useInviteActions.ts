import { useNavigate } from 'react-router';
import type { OrgWire, Paged } from '@orrery/contract';
import { API, request } from '../../api/client';
import { withContext } from '../../app/context/links';
import { saveContext } from '../../app/context/storage';
import { useAcceptInvite, useDeclineInvite, type Invite } from '../../api/invites';
import { useAccount } from '../../app/session/account';
import { messageOf } from '../../ui/errors';
import { notifyError, notifySuccess, withOutcome } from '../../ui/notify';
import { INVITE_TEXTS } from './texts';

/**
 * Accept adds the user, reloads organizations and clusters, selects the first organization (its
 * cluster follows) and says so. A failure goes to the common handler.
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
        const first = orgs.items[0]?.name;
        // As after creating an organization: the stored context names the organization and
        // leaves the cluster open, so the context picks its first cluster; the navigation goes
        // in the same tick as the reload starts, so the onboarding screens cannot catch the
        // old address (the reload swaps them for the application).
        if (first) saveContext({ org: first });
        const reloaded = refresh();
        navigate(first ? withContext('/', { org: first }) : '/');
        await reloaded;
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
