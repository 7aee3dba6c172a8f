/**
 * Pending invitations for the banner. The invites API arrives in a later issue; until then there
 * is honestly nothing pending, so the banner stays hidden.
 */
export const usePendingInviteCount = (): number => 0;
