import { randomBytes } from 'node:crypto';
import type { MemberRole, ServiceAccountWire } from '@orrery/contract';
import type { AccountRow } from './accounts-store.js';

/** A name for an account created without one (`name: null`), valid as a token name. */
export const accountName = () => `sa-${randomBytes(4).toString('hex')}`;

/** A service account as the API answers it. */
export const accountWire = (r: AccountRow): ServiceAccountWire => ({
  id: r.id,
  owner: r.owner,
  name: r.name,
  default_cluster: r.cluster,
  default_org: r.org,
  default_project: r.project,
  role: r.role as MemberRole,
  created_at: r.createdAt.toISOString(),
});
