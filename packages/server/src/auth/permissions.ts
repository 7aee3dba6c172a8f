import { and, eq, inArray } from 'drizzle-orm';
import {
  actionOfRole,
  atLeast,
  parseUri,
  PROJECT_SCHEMES,
  type Action,
  type Scheme,
} from '@orrery/contract';
import type { Db } from '../db/client.js';
import {
  clusterMembers,
  clusterOrgs,
  orgMembers,
  permissions,
  projectMembers,
  projects,
} from '../db/schema.js';
import type { Principal } from './principal.js';

/**
 * The one permission engine (DESIGN.md, Authorization). A grant gives an action on a URI and
 * everything below it; roles and shares are both turned into grants.
 */
export interface Grant {
  /** A scheme, `project-scoped` for every scheme under a project, or `*` for everything. */
  scheme: Scheme | 'project-scoped' | '*';
  path: string[];
  action: Action;
}

const PROJECT_SCOPED = new Set<string>(PROJECT_SCHEMES);

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

/** Every grant of a user: system role, organization, cluster and project roles, and shares. */
export async function grantsOf(db: Db, user: Principal): Promise<Grant[]> {
  if (user.systemRole === 'admin') return [{ scheme: '*', path: [], action: 'manage' }];
  const [orgs, clusters, projectRoles, shares] = await Promise.all([
    db.select().from(orgMembers).where(eq(orgMembers.userId, user.id)),
    db.select().from(clusterMembers).where(eq(clusterMembers.userId, user.id)),
    db
      .select({
        role: projectMembers.role,
        cluster: projects.clusterName,
        org: projects.orgName,
        name: projects.name,
      })
      .from(projectMembers)
      .innerJoin(projects, eq(projects.id, projectMembers.projectId))
      .where(eq(projectMembers.userId, user.id)),
    db.select().from(permissions).where(eq(permissions.userId, user.id)),
  ]);
  const grants: Grant[] = [];
  for (const m of orgs) {
    grants.push({ scheme: 'org', path: [m.orgName], action: actionOfRole(m.role) });
  }
  if (orgs.length > 0) {
    // Members of an organization may use the clusters linked to it.
    const links = await db
      .select({ cluster: clusterOrgs.clusterName })
      .from(clusterOrgs)
      .where(
        inArray(
          clusterOrgs.orgName,
          orgs.map((o) => o.orgName),
        ),
      );
    for (const l of links) grants.push({ scheme: 'cluster', path: [l.cluster], action: 'read' });
  }
  for (const c of clusters) {
    grants.push({ scheme: 'cluster', path: [c.clusterName], action: actionOfRole(c.role) });
  }
  for (const p of projectRoles) {
    grants.push({
      scheme: 'project-scoped',
      path: [p.cluster, p.org, p.name],
      action: actionOfRole(p.role),
    });
  }
  for (const s of shares) {
    const parsed = parseUri(s.uri);
    if (parsed)
      grants.push({ scheme: parsed.scheme, path: parsed.segments, action: s.action as Action });
  }
  return grants;
}

/** Whether a user is a member of an organization, and with which role. */
export async function orgRoleOf(db: Db, userId: string, org: string): Promise<string | null> {
  const [row] = await db
    .select({ role: orgMembers.role })
    .from(orgMembers)
    .where(and(eq(orgMembers.userId, userId), eq(orgMembers.orgName, org)));
  return row?.role ?? null;
}
