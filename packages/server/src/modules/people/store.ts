import { and, asc, eq, inArray, notExists, sql } from 'drizzle-orm';
import { projectTokens } from '../tokens/tables.js';
import { decimal } from '../../db/numeric.js';
import type { ClusterRole, MemberRole, OrgRole, ProjectRole } from '@orrery/contract';
import type { Db } from '../../db/client.js';
import {
  clusterMembers,
  clusterOrgs,
  orgMembers,
  projectMembers,
  projects,
  users,
} from '../../db/schema.js';

const person = {
  userId: users.id,
  username: users.username,
  name: users.name,
  email: users.email,
  createdAt: users.createdAt,
};

export async function orgUsers(db: Db, org: string) {
  const rows = await db
    .select({ ...person, role: orgMembers.role, credits: orgMembers.credits })
    .from(orgMembers)
    .innerJoin(users, eq(users.id, orgMembers.userId))
    .where(eq(orgMembers.orgName, org))
    .orderBy(asc(users.username));
  return rows.map((r) => ({ ...r, role: r.role as OrgRole, credits: decimal(r.credits) }));
}
export type OrgUserRow = Awaited<ReturnType<typeof orgUsers>>[number];

/** Members of a cluster who belong to the organization. */
export async function clusterUsers(db: Db, cluster: string, org: string) {
  const rows = await db
    .select({ ...person, role: clusterMembers.role })
    .from(clusterMembers)
    .innerJoin(users, eq(users.id, clusterMembers.userId))
    .innerJoin(
      orgMembers,
      and(eq(orgMembers.userId, clusterMembers.userId), eq(orgMembers.orgName, org)),
    )
    .where(eq(clusterMembers.clusterName, cluster))
    .orderBy(asc(users.username));
  return rows.map((r) => ({ ...r, role: r.role as ClusterRole }));
}
export type ClusterUserRow = Awaited<ReturnType<typeof clusterUsers>>[number];

/** The people of a project: its tokens' service accounts are listed with the tokens instead. */
export async function projectUsers(db: Db, id: string) {
  const rows = await db
    .select({ ...person, role: projectMembers.role })
    .from(projectMembers)
    .innerJoin(users, eq(users.id, projectMembers.userId))
    .where(
      and(
        eq(projectMembers.projectId, id),
        notExists(
          db
            .select({ one: sql`1` })
            .from(projectTokens)
            .where(eq(projectTokens.userId, projectMembers.userId)),
        ),
      ),
    )
    .orderBy(asc(users.username));
  return rows.map((r) => ({ ...r, role: r.role as ProjectRole }));
}
export type ProjectUserRow = Awaited<ReturnType<typeof projectUsers>>[number];

// ---- changes ----

const orgMember = (org: string, userId: string) =>
  and(eq(orgMembers.orgName, org), eq(orgMembers.userId, userId));

export async function insertOrgMember(
  db: Db,
  m: { org: string; userId: string; role: OrgRole; credits: string | null },
) {
  await db
    .insert(orgMembers)
    .values({ orgName: m.org, userId: m.userId, role: m.role, credits: m.credits });
}

/** Changes a member's role, and their credits limit when given (null: unlimited). */
export async function updateOrgMember(
  db: Db,
  org: string,
  userId: string,
  p: { role: OrgRole; credits?: string | null },
) {
  await db
    .update(orgMembers)
    .set({ role: p.role, ...(p.credits !== undefined ? { credits: p.credits } : {}) })
    .where(orgMember(org, userId));
}

/** Sets a member's credits limit (null: unlimited), or adds to it (unlimited stays unlimited). */
export async function setOrgMemberCredits(
  db: Db,
  org: string,
  userId: string,
  change: { credits: string | null } | { add: string },
) {
  await db
    .update(orgMembers)
    .set({ credits: 'add' in change ? sql`${orgMembers.credits} + ${change.add}` : change.credits })
    .where(orgMember(org, userId));
}

/**
 * Takes a person out of an organization, out of its projects, and out of the clusters they
 * reached through it alone, in one transaction.
 */
export async function deleteOrgMember(db: Db, org: string, userId: string) {
  await db.transaction(async (tx) => {
    await tx.delete(orgMembers).where(orgMember(org, userId));
    const inOrg = tx.select({ id: projects.id }).from(projects).where(eq(projects.orgName, org));
    await tx
      .delete(projectMembers)
      .where(and(eq(projectMembers.userId, userId), inArray(projectMembers.projectId, inOrg)));
    const [linked, stillVia] = await Promise.all([
      tx
        .select({ cluster: clusterOrgs.clusterName })
        .from(clusterOrgs)
        .where(eq(clusterOrgs.orgName, org)),
      tx
        .select({ cluster: clusterOrgs.clusterName })
        .from(clusterOrgs)
        .innerJoin(orgMembers, eq(orgMembers.orgName, clusterOrgs.orgName))
        .where(eq(orgMembers.userId, userId)),
    ]);
    const keep = new Set(stillVia.map((r) => r.cluster));
    const drop = linked.map((r) => r.cluster).filter((c) => !keep.has(c));
    if (drop.length) {
      await tx
        .delete(clusterMembers)
        .where(and(eq(clusterMembers.userId, userId), inArray(clusterMembers.clusterName, drop)));
    }
  });
}

const clusterMember = (cluster: string, userId: string) =>
  and(eq(clusterMembers.clusterName, cluster), eq(clusterMembers.userId, userId));

export async function clusterMemberRow(db: Db, cluster: string, userId: string) {
  const [row] = await db.select().from(clusterMembers).where(clusterMember(cluster, userId));
  return row;
}

/** Gives a person a role on a cluster: a new membership, or a change of the one they have. */
export async function putClusterMember(
  db: Db,
  cluster: string,
  userId: string,
  role: ClusterRole,
  exists: boolean,
) {
  if (exists) {
    await db.update(clusterMembers).set({ role }).where(clusterMember(cluster, userId));
  } else {
    await db.insert(clusterMembers).values({ clusterName: cluster, userId, role });
  }
}

/** Ends a cluster membership; false when there was none. */
export async function deleteClusterMember(db: Db, cluster: string, userId: string) {
  const gone = await db.delete(clusterMembers).where(clusterMember(cluster, userId)).returning();
  return gone.length > 0;
}

/** Adds, changes or ends a project membership. */
export async function changeProjectMember(
  db: Db,
  projectId: string,
  userId: string,
  role: MemberRole | null,
  mode: 'add' | 'update' | 'remove',
) {
  const where = and(eq(projectMembers.projectId, projectId), eq(projectMembers.userId, userId));
  if (mode === 'remove') await db.delete(projectMembers).where(where);
  else if (mode === 'update') await db.update(projectMembers).set({ role: role! }).where(where);
  else await db.insert(projectMembers).values({ projectId, userId, role: role! });
}
