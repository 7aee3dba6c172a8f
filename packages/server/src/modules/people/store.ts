import { and, asc, eq, notExists, sql } from 'drizzle-orm';
import { projectTokens } from '../tokens/tables.js';
import { decimal } from '../../db/numeric.js';
import type { ClusterRole, OrgRole, ProjectRole } from '@orrery/contract';
import type { Db } from '../../db/client.js';
import { clusterMembers, orgMembers, projectMembers, users } from '../../db/schema.js';

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
