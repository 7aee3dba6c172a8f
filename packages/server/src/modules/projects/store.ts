import { and, eq, sql } from 'drizzle-orm';
import type { MemberRole, ProjectRole } from '@orrery/contract';
import type { Db } from '../../db/client.js';
import { projectMembers, projects } from '../../db/schema.js';

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

export const projectWire = (p: ProjectView) => ({
  name: p.name,
  org_name: p.orgName,
  cluster_name: p.clusterName,
  role: p.role,
  is_default: p.isDefault,
  default_role: p.defaultRole,
});

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
