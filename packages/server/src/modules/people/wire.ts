import type { UserRow } from '../users/store.js';
import type { ClusterUserRow, OrgUserRow, ProjectUserRow } from './store.js';

type InfoSource = Pick<UserRow, 'email' | 'name' | 'createdAt'>;

/** `user_info` of the admin API: the full name is split once, at its first space. */
export function userInfo(u: InfoSource) {
  const [first, ...rest] = u.name.trim().split(/\s+/);
  return {
    email: u.email,
    first_name: first || null,
    last_name: rest.length ? rest.join(' ') : null,
    created_at: u.createdAt.toISOString(),
  };
}

export const orgUserWire = (org: string, r: OrgUserRow, withInfo: boolean) => ({
  user_name: r.username,
  org_name: org,
  role: r.role,
  // Spending is recorded by the billing area; until then nothing has been spent.
  balance: { credits: r.credits, spent_credits: '0' },
  ...(withInfo ? { user_info: userInfo(r) } : {}),
});

export const clusterUserWire = (
  cluster: string,
  org: string,
  r: ClusterUserRow,
  withInfo: boolean,
) => ({
  user_name: r.username,
  cluster_name: cluster,
  org_name: org,
  role: r.role,
  ...(withInfo ? { user_info: userInfo(r) } : {}),
});

export const projectUserWire = (
  place: { cluster: string; org: string; project: string },
  r: ProjectUserRow,
  withInfo: boolean,
) => ({
  user_name: r.username,
  project_name: place.project,
  cluster_name: place.cluster,
  org_name: place.org,
  role: r.role,
  ...(withInfo ? { user_info: userInfo(r) } : {}),
});
