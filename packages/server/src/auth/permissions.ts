import {
  actionOfRole,
  atLeast,
  parseUri,
  PROJECT_SCHEMES,
  type Action,
  type Scheme,
} from '@orrery/contract';
import type { Db } from '../db/client.js';
import { orgMemberRole } from './store.js';
import {
  membershipsOf,
  NO_MEMBERSHIPS,
  type Memberships,
  type ServiceAccountScope,
} from './memberships.js';
import type { Principal } from './principal.js';

/**
 * The one permission engine (docs/permissions.md). A grant gives an action on a URI and
 * everything below it; roles and shares are both turned into grants.
 */
export interface Grant {
  /** A scheme, `project-scoped` for every scheme under a project, or `*` for everything. */
  scheme: Scheme | 'project-scoped' | '*';
  path: string[];
  action: Action;
}

const PROJECT_SCOPED = new Set<string>(PROJECT_SCHEMES);

/**
 * A project token's user name is `NAME--xxxxxxxx`; a person's has single hyphens (USERNAME). Only
 * such names need the database to tell whether they are a service account.
 */
export const isServiceAccountName = (username: string) => username.includes('--');

function covers(grant: Grant, scheme: Scheme, path: string[]): boolean {
  if (grant.scheme === '*') return true;
  if (grant.scheme === 'project-scoped' ? !PROJECT_SCOPED.has(scheme) : grant.scheme !== scheme) {
    return false;
  }
  return grant.path.length <= path.length && grant.path.every((seg, i) => path[i] === seg);
}

/** The strongest action the grants give on `uri`, or null. */
export function actionOn(grants: Grant[], uri: string): Action | null {
  const parsed = parseUri(uri);
  if (!parsed) return null;
  let best: Action | null = null;
  for (const g of grants) {
    if (covers(g, parsed.scheme, parsed.segments) && (!best || atLeast(g.action, best))) {
      best = g.action;
    }
  }
  return best;
}

export const allows = (grants: Grant[], uri: string, action: Action) => {
  const have = actionOn(grants, uri);
  return have !== null && atLeast(have, action);
};

/**
 * A service account acts in its project and with its token's role, and nowhere else: whatever
 * rows were added for its user (an organization, a share, a system role, a higher project
 * role), only grants at or below the project count, each at most the token's role, and the
 * project's cluster may be read (to run there).
 */
function serviceAccountGrants(sa: ServiceAccountScope, all: Grant[]): Grant[] {
  const scope = [sa.cluster, sa.org, sa.project];
  const most = actionOfRole(sa.role);
  const inside = all
    .filter(
      (g) =>
        (g.scheme === 'project-scoped' || PROJECT_SCOPED.has(g.scheme)) &&
        scope.every((seg, i) => g.path[i] === seg),
    )
    .map((g) => (atLeast(g.action, most) ? { ...g, action: most } : g));
  return [...inside, { scheme: 'cluster', path: [sa.cluster], action: 'read' }];
}

/** Every grant of a user: system role, organization, cluster and project roles, and shares. */
export function grantsFrom(user: Principal, m: Memberships): Grant[] {
  if (m.serviceAccount) {
    return serviceAccountGrants(m.serviceAccount, grantsFrom(user, { ...m, serviceAccount: null }));
  }
  if (user.systemRole === 'admin') return [{ scheme: '*', path: [], action: 'manage' }];
  const grants: Grant[] = [];
  for (const o of m.orgs) {
    grants.push({ scheme: 'org', path: [o.name], action: actionOfRole(o.role) });
  }
  // Members of an organization may use the clusters linked to it.
  for (const l of m.orgClusters) {
    grants.push({ scheme: 'cluster', path: [l.cluster], action: 'read' });
  }
  for (const c of m.clusters) {
    grants.push({ scheme: 'cluster', path: [c.name], action: actionOfRole(c.role) });
  }
  for (const p of m.projects) {
    grants.push({
      scheme: 'project-scoped',
      path: [p.cluster, p.org, p.name],
      action: actionOfRole(p.role),
    });
  }
  for (const s of m.shares) {
    const parsed = parseUri(s.uri);
    if (parsed)
      grants.push({ scheme: parsed.scheme, path: parsed.segments, action: s.action as Action });
  }
  return grants;
}

/**
 * The grants of a user, from memberships read now unless `memberships` says where from (requests
 * use the cached ones of `request.grants()`). An administrator's need none.
 */
export async function grantsOf(
  db: Db,
  user: Principal,
  memberships: (user: Principal) => Promise<Memberships> = (u) => membershipsOf(db, u.id),
): Promise<Grant[]> {
  // An administrator's rows are not read, except for a user that could be a service account
  // (`--` in the name, which no person's has): its scope bounds even a system role.
  const admin = user.systemRole === 'admin' && !isServiceAccountName(user.username);
  return grantsFrom(user, admin ? NO_MEMBERSHIPS : await memberships(user));
}

/** Whether a user is a member of an organization, and with which role. */
export async function orgRoleOf(db: Db, userId: string, org: string): Promise<string | null> {
  return orgMemberRole(db, userId, org);
}
