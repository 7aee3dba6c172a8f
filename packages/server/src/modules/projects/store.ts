import { and, eq, sql } from 'drizzle-orm';
import type { MemberRole, ProjectRole } from '@orrery/contract';
import type { Db } from '../../db/client.js';
import { clusterOrgs, projectMembers, projects } from '../../db/schema.js';

export interface ProjectView {
  name: string;
  orgName: string;
  clusterName: string;
  role: ProjectRole | null;
  isDefault: boolean;
  defaultRole: MemberRole;
}

const columns = {
  name: projects.name,
  orgName: projects.orgName,
  clusterName: projects.clusterName,
  isDefault: projects.isDefault,
  defaultRole: projects.defaultRole,
  role: projectMembers.role,
};
const asView = (
  r: { role: string | null; defaultRole: string } & Omit<ProjectView, 'role' | 'defaultRole'>,
): ProjectView => ({
  ...r,
  role: (r.role as ProjectRole | null) ?? null,
  defaultRole: r.defaultRole as MemberRole,
});

/** Projects the user is a member of. */
export async function projectsOfUser(db: Db, userId: string): Promise<ProjectView[]> {
  const rows = await db
    .select(columns)
    .from(projectMembers)
    .innerJoin(projects, eq(projects.id, projectMembers.projectId))
    .where(eq(projectMembers.userId, userId))
    .orderBy(projects.clusterName, projects.orgName, projects.name);
  return rows.map(asView);
}

/** Every project of an organization in a cluster, with the caller's role in each (or null). */
export async function projectsIn(db: Db, cluster: string, org: string, userId: string) {
  const rows = await db
    .select(columns)
    .from(projects)
    .leftJoin(
      projectMembers,
      and(eq(projectMembers.projectId, projects.id), eq(projectMembers.userId, userId)),
    )
    .where(and(eq(projects.clusterName, cluster), eq(projects.orgName, org)))
    .orderBy(projects.name);
  return rows.map(asView);
}

export async function projectByPath(
  db: Db,
  cluster: string,
  org: string,
  name: string,
  userId: string,
) {
  const rows = await projectsIn(db, cluster, org, userId);
  return rows.find((p) => p.name === name) ?? null;
}

export async function projectExists(db: Db, cluster: string, org: string, name: string) {
  const [row] = await db
    .select({ one: sql<number>`1` })
    .from(projects)
    .where(
      and(eq(projects.clusterName, cluster), eq(projects.orgName, org), eq(projects.name, name)),
    );
  return !!row;
}

/** A project's id by its place, or null when there is none. */
export async function projectId(db: Db, cluster: string, org: string, project: string) {
  const [row] = await db
    .select({ id: projects.id })
    .from(projects)
    .where(
      and(eq(projects.clusterName, cluster), eq(projects.orgName, org), eq(projects.name, project)),
    );
  return row?.id ?? null;
}

/** The clusters that have a project of this organization and name (a name may repeat across clusters). */
export async function clustersOfProject(db: Db, org: string, project: string) {
  const rows = await db
    .select({ cluster: projects.clusterName })
    .from(projects)
    .where(and(eq(projects.orgName, org), eq(projects.name, project)));
  return rows.map((r) => r.cluster);
}

/** Whether the organization is linked to the cluster (where its projects may be made). */
export async function clusterLinked(db: Db, cluster: string, org: string) {
  const [link] = await db
    .select({ org: clusterOrgs.orgName })
    .from(clusterOrgs)
    .where(and(eq(clusterOrgs.clusterName, cluster), eq(clusterOrgs.orgName, org)));
  return link !== undefined;
}

/** A project to make, as its creator names it. */
export interface NewProject {
  name: string;
  orgName: string;
  clusterName: string;
  isDefault: boolean;
  defaultRole: MemberRole;
}

/** Thrown inside the insert's transaction, so that a taken name rolls the whole of it back. */
class NameTaken extends Error {}

/**
 * Inserts a project with `creatorId` as its admin; false when the name is taken (and nothing
 * changed). A default project takes the place of the organization's default on that cluster.
 */
export async function insertProject(db: Db, p: NewProject, creatorId: string): Promise<boolean> {
  try {
    await db.transaction(async (tx) => {
      if (p.isDefault) {
        // One default project per organization and cluster.
        await tx
          .update(projects)
          .set({ isDefault: false })
          .where(and(eq(projects.clusterName, p.clusterName), eq(projects.orgName, p.orgName)));
      }
      const inserted = await tx
        .insert(projects)
        .values({ ...p })
        .onConflictDoNothing()
        .returning({ id: projects.id });
      if (inserted.length === 0) throw new NameTaken();
      await tx
        .insert(projectMembers)
        .values({ projectId: inserted[0].id, userId: creatorId, role: 'admin' });
    });
    return true;
  } catch (e) {
    if (e instanceof NameTaken) return false;
    throw e;
  }
}

/** The projects on a cluster (of one organization, when named), by organization and name. */
export const projectsOnCluster = (db: Db, cluster: string, org?: string) =>
  db
    .select()
    .from(projects)
    .where(
      org
        ? and(eq(projects.clusterName, cluster), eq(projects.orgName, org))
        : eq(projects.clusterName, cluster),
    )
    .orderBy(projects.orgName, projects.name);
