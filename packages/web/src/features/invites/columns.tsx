import type { Invite } from '../../api/invites';
import type { Column } from '../../ui/DataTable';
import { formatDate } from '../../ui/dates';
import { InviteStatusBadge } from './InviteStatusBadge';

/**
 * Role, expiry and status of an invitation: the columns the invited user's list and the
 * organization's list of sent invitations share, under each list's own headers.
 */
export const inviteColumns = (headers: {
  role: string;
  expiry: string;
  status: string;
}): Column<Invite>[] => [
  { header: headers.role, cell: (i) => i.role },
  { header: headers.expiry, cell: (i) => formatDate(i.expiredAt) },
  { header: headers.status, cell: (i) => <InviteStatusBadge status={i.status} /> },
];
