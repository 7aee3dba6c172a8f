import { PEOPLE_TEXTS, type InviteStatus } from '@orrery/contract';

/** Every text of the invitations. */
export const INVITE_TEXTS = {
  verifyBlocked: 'accept this invitation',
  verifyBlockedAll: 'accept an invitation',
  title: 'Invitations',
  columns: {
    org: 'Organization',
    role: 'Role',
    expiry: 'Expiry Date',
    status: 'Status',
    actions: 'Actions',
  },
  decline: 'Decline',
  accept: 'Accept',
  empty: PEOPLE_TEXTS.noPendingInvites,
  screenTitle: 'You have been invited to organization',
  organization: 'Organization',
  expires: 'Expiry date',
  role: 'Role',
  acceptAndGo: 'Accept and Go',
  addedToOrg: PEOPLE_TEXTS.addedToOrg,
  declined: (org: string) => `You declined the invitation to organization ${org}`,
  notOpen: 'This invitation can no longer be accepted.',
  notFound: 'This invitation does not exist or is not addressed to you.',
  allInvites: 'All invitations',
  loadFailed: 'Something went wrong',
  signupTitle: 'Create your account to join',
  signupText: (email: string) =>
    `You were invited by e-mail${email ? ` (${email})` : ''}. Create your account, then accept the invitation.`,
  signupButton: 'Create account',
} as const;

/** Pending shows as "invited" in the primary colour (the theme's, by default). */
export const STATUS_LABEL: Record<InviteStatus, { label: string; color: string | undefined }> = {
  pending: { label: 'invited', color: undefined },
  accepted: { label: 'accepted', color: 'gray' },
  expired: { label: 'expired', color: 'yellow' },
  declined: { label: 'declined', color: 'red' },
};
