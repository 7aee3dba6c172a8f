import { and, count, eq, inArray, sql } from 'drizzle-orm';
import { DEFAULT_CLUSTER, type OrgRole } from '@orrery/contract';
import type { Db } from '../../db/client.js';
import { decimal } from '../../db/numeric.js';
import {
  clusterOrgs,
  clusters,
  organizations,
  orgMembers,
  projectMembers,
  projects,
} from '../../db/schema.js';

export interface UserOrgView {
  name: string;
  role: OrgRole;
  credits: string | null;
  projectsCount: number;
}

/** The caller's organizations with their role, balance and how many of its projects they are in. */
export async function orgsOfUser(db: Db, userId: string): Promise<UserOrgView[]> {
  const rows = await db
    .select({ name: organizations.name, role: orgMembers.role, credits: organizations.credits })
    .from(orgMembers)
    .innerJoin(organizations, eq(organizations.name, orgMembers.orgName))
    .where(eq(orgMembers.userId, userId))
    .orderBy(organizations.name);
  if (rows.length === 0) return [];
  const counts = await db
    .select({ org: projects.orgName, n: count() })
    .from(projectMembers)
    .innerJoin(projects, eq(projects.id, projectMembers.projectId))
    .where(
      and(
        eq(projectMembers.userId, userId),
        inArray(
          projects.orgName,
          rows.map((r) => r.name),
        ),
      ),
    )
    .groupBy(projects.orgName);
  return rows.map((r) => ({
    name: r.name,
    role: r.role as OrgRole,
    credits: r.credits === null ? null : String(Number(r.credits)),
    projectsCount: counts.find((c) => c.org === r.name)?.n ?? 0,
  }));
}

export async function orgExists(db: Db, name: string): Promise<boolean> {
  const [row] = await db
    .select({ one: sql<number>`1` })
    .from(organizations)
    .where(eq(organizations.name, name));
  return !!row;
}

/** Every organization as the admin API shows it: its credits and how many members it has. */
export async function adminOrgs(db: Db) {
  const [rows, members] = await Promise.all([
    db.select().from(organizations).orderBy(organizations.name),
    db.select({ org: orgMembers.orgName, n: count() }).from(orgMembers).groupBy(orgMembers.orgName),
  ]);
  return rows.map((o) => ({
    name: o.name,
    // Spending is recorded by the billing area; until then nothing has been spent.
    balance: { credits: decimal(o.credits), spent_credits: '0' },
    user_default_credits: null,
    notification_intervals: null,
    users_count: members.find((m) => m.org === o.name)?.n ?? 0,
  }));
}

/** Thrown inside the insert's transaction, so that a taken name rolls the whole of it back. */
class NameTaken extends Error {}

/**
 * Inserts an organization with `adminId` as its admin, linked to the local cluster `default`
 * (while it exists) when `linkLocalCluster`; false when the name is taken (and nothing changed).
 */
export async function insertOrg(
  db: Db,
  name: string,
  adminId: string,
  linkLocalCluster: boolean,
): Promise<boolean> {
  try {
    await db.transaction(async (tx) => {
      const inserted = await tx
        .insert(organizations)
        .values({ name })
        .onConflictDoNothing()
        .returning({ name: organizations.name });
      if (inserted.length === 0) throw new NameTaken();
      await tx.insert(orgMembers).values({ orgName: name, userId: adminId, role: 'admin' });
      if (!linkLocalCluster) return;
      const [local] = await tx.select().from(clusters).where(eq(clusters.name, DEFAULT_CLUSTER));
      if (local) await tx.insert(clusterOrgs).values({ clusterName: local.name, orgName: name });
    });
    return true;
  } catch (e) {
    if (e instanceof NameTaken) return false;
    throw e;
  }
}
