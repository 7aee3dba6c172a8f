import type { InviteStatus, InviteWire, OrgRole } from '@orrery/contract';
import type { InviteRow } from './store.js';

/** A pending invite past its expiry reads as expired; accepted and declined stay as they are. */
export const statusOf = (row: InviteRow, now = new Date()): InviteStatus =>
  row.status === 'pending' && row.expiresAt <= now ? 'expired' : (row.status as InviteStatus);

export const inviteWire = (row: InviteRow): InviteWire => ({
  id: row.id,
  invite_id: row.id,
  organization_name: row.orgName,
  email: row.email,
  role: row.role as OrgRole,
  status: statusOf(row),
  expired_at: row.expiresAt.toISOString(),
  created_at: row.createdAt.toISOString(),
});
