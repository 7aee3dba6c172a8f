import {
  clusterUri,
  orgUri,
  type ClusterRole,
  type MemberRole,
  type OrgRole,
} from '@orrery/contract';
import type { FastifyRequest } from 'fastify';
import type { Db } from '../../db/client.js';
import type { Principal } from '../../auth/principal.js';
import { allows, orgRoleOf } from '../../auth/permissions.js';
import { conflict, forbidden, notFound } from '../../http/errors.js';
import { userByUsername } from '../users/store.js';
import { clusterLinked } from '../projects/store.js';
import {
  changeProjectMember,
  clusterMemberRow,
  clusterUsers,
  deleteClusterMember,
  deleteOrgMember,
  insertOrgMember,
  orgUsers,
  projectUsers,
  putClusterMember,
  setOrgMemberCredits,
  updateOrgMember,
  type ClusterUserRow,
} from './store.js';

export { clusterUsers, orgUsers, projectUsers };

export const ONLY_ADMINS = 'Only an organization admin may give or change the admin role';
export const ONLY_PROJECT_ADMINS =
  'Only a project admin or an organization manager may change a project admin';
const LAST_ADMIN = 'An organization needs at least one admin';

/** The caller's standing in an organization; a system admin counts as its admin. */
export async function callerOrgRole(db: Db, caller: Principal, org: string) {
  return caller.systemRole === 'admin' ? 'admin' : await orgRoleOf(db, caller.id, org);
}

async function memberOf(db: Db, org: string, username: string) {
  const user = await userByUsername(db, username);
  const role = user ? await orgRoleOf(db, user.id, org) : null;
  if (!user || !role) throw notFound(`User ${username} is not a member of ${org} organization`);
  return { user, role: role as OrgRole };
}

/**
 * Managers may manage the organization's users, but the admin role is kept by admins: a manager
 * can neither give it nor change or remove an admin. The last admin stays.
 */
export const adminRoleRefusal = (
  mine: string | null,
  current: OrgRole | null,
  next: OrgRole | null,
): string | null =>
  (current === 'admin' || next === 'admin') && mine !== 'admin' ? ONLY_ADMINS : null;

async function guardAdminRole(
  db: Db,
  caller: Principal,
  org: string,
  current: OrgRole | null,
  next: OrgRole | null,
) {
  const refused = adminRoleRefusal(await callerOrgRole(db, caller, org), current, next);
  if (refused) throw forbidden(refused);
  if (current === 'admin' && next !== 'admin') {
    const admins = (await orgUsers(db, org)).filter((u) => u.role === 'admin');
    if (admins.length <= 1) throw conflict(LAST_ADMIN);
  }
}

export async function addOrgUser(
  db: Db,
  caller: Principal,
  org: string,
  p: { username: string; role: OrgRole; credits: string | null },
) {
  const user = await userByUsername(db, p.username);
  if (!user) throw notFound(`User ${p.username} not found`);
  if (await orgRoleOf(db, user.id, org)) {
    throw conflict(`User ${p.username} is already a member of ${org} organization`, 'user_name');
  }
  await guardAdminRole(db, caller, org, null, p.role);
  await insertOrgMember(db, { org, userId: user.id, role: p.role, credits: p.credits });
}

export async function updateOrgUser(
  db: Db,
  caller: Principal,
  org: string,
  username: string,
  p: { role: OrgRole; credits?: string | null },
) {
  const m = await memberOf(db, org, username);
  await guardAdminRole(db, caller, org, m.role, p.role);
  await updateOrgMember(db, org, m.user.id, p);
}

/**
 * A member's credits (`apolo admin set-user-credits`, `add-user-credits`): a new limit (null:
 * unlimited) or an amount added to it, which leaves an unlimited member unlimited.
 */
export async function setOrgUserCredits(
  db: Db,
  org: string,
  username: string,
  change: { credits: string | null } | { add: string },
) {
  const m = await memberOf(db, org, username);
  await setOrgMemberCredits(db, org, m.user.id, change);
}

/**
 * Removing someone from an organization also takes them out of its projects, and out of the
 * clusters they reached through it alone: their roles there came with the membership.
 */
export async function removeOrgUser(db: Db, caller: Principal, org: string, username: string) {
  const m = await memberOf(db, org, username);
  await guardAdminRole(db, caller, org, m.role, null);
  await deleteOrgMember(db, org, m.user.id);
}

/** A cluster's users are managed by its managers and by the organization's (tenant) managers. */
export async function assertClusterPeopleManager(
  request: FastifyRequest,
  cluster: string,
  org: string,
) {
  const grants = await request.grants();
  if (!allows(grants, clusterUri(cluster), 'manage') && !allows(grants, orgUri(org), 'manage')) {
    throw forbidden();
  }
}

export async function assertClusterOfOrg(db: Db, cluster: string, org: string) {
  if (!(await clusterLinked(db, cluster, org)))
    throw notFound(`Cluster ${cluster} is not available to organization ${org}`);
}

export async function setClusterUser(
  db: Db,
  cluster: string,
  org: string,
  p: { username: string; role: ClusterRole },
  mode: 'add' | 'update',
) {
  const { user } = await memberOf(db, org, p.username);
  const existing = await clusterMemberRow(db, cluster, user.id);
  if (mode === 'add' && existing) {
    throw conflict(`User ${p.username} is already in ${cluster} cluster`, 'user_name');
  }
  if (mode === 'update' && !existing)
    throw notFound(`User ${p.username} is not in ${cluster} cluster`);
  await putClusterMember(db, cluster, user.id, p.role, !!existing);
}

export async function removeClusterUser(db: Db, cluster: string, org: string, username: string) {
  const { user } = await memberOf(db, org, username);
  if (!(await deleteClusterMember(db, cluster, user.id)))
    throw notFound(`User ${username} is not in ${cluster} cluster`);
}

/** Why the caller may not change a project member of role `current`, or null if they may. */
export async function projectAdminRefusal(
  db: Db,
  caller: Principal,
  org: string,
  members: { userId: string; role: string }[],
  current: string | undefined,
): Promise<string | null> {
  if (current !== 'admin') return null;
  const mine = members.find((m) => m.userId === caller.id)?.role;
  const orgRole = await callerOrgRole(db, caller, org);
  return mine === 'admin' || orgRole === 'admin' || orgRole === 'manager'
    ? null
    : ONLY_PROJECT_ADMINS;
}

/**
 * Project members come from the organization. The admin (the project's creator) is changed or
 * removed only by another admin of the project, the organization's managers or a system admin.
 */
export async function setProjectUser(
  db: Db,
  caller: Principal,
  place: { org: string; projectId: string },
  p: { username: string; role: MemberRole | null },
  mode: 'add' | 'update' | 'remove',
) {
  const { user } = await memberOf(db, place.org, p.username);
  const members = await projectUsers(db, place.projectId);
  const existing = members.find((m) => m.userId === user.id);
  if (mode === 'add' && existing) {
    throw conflict(`User ${p.username} is already a member of this project`, 'user_name');
  }
  if (mode !== 'add' && !existing) throw notFound(`User ${p.username} is not in this project`);
  const refused = await projectAdminRefusal(db, caller, place.org, members, existing?.role);
  if (refused) throw forbidden(refused);
  await changeProjectMember(db, place.projectId, user.id, p.role, mode);
}

/**
 * A person as a user of a cluster within an organization: a member of the cluster, else a member
 * of the organization, else (`inProject`: the caller asks about themselves and has a project
 * there) the person alone, each working there as a user (docs/people.md). Null when none.
 */
export async function clusterUserOf(
  db: Db,
  cluster: string,
  org: string,
  username: string,
  inProject: boolean,
): Promise<ClusterUserRow | null> {
  const row = (await clusterUsers(db, cluster, org)).find((u) => u.username === username);
  if (row) return row;
  const member = (await orgUsers(db, org)).find((u) => u.username === username);
  if (member) return { ...member, role: 'user' };
  const me = inProject ? await userByUsername(db, username) : null;
  if (!me) return null;
  const person = { userId: me.id, username: me.username, name: me.name, email: me.email };
  return { ...person, createdAt: me.createdAt, role: 'user' };
}
