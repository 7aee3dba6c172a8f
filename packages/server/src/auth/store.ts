import { and, eq } from 'drizzle-orm';
import type { JWK } from 'jose';
import type { Db } from '../db/client.js';
import {
  clusterMembers,
  clusterOrgs,
  orgMembers,
  permissions,
  projectMembers,
  projects,
  signingKeys,
} from '../db/schema.js';
import { projectTokens } from '../modules/tokens/tables.js';

/** The rows that give a user access (memberships.ts makes them a user's `Memberships`). */
export async function membershipRows(db: Db, userId: string) {
  const [orgs, orgClusters, clusters, projectRoles, shares, tokens] = await Promise.all([
    db
      .select({ name: orgMembers.orgName, role: orgMembers.role })
      .from(orgMembers)
      .where(eq(orgMembers.userId, userId))
      .orderBy(orgMembers.orgName),
    db
      .select({ cluster: clusterOrgs.clusterName, org: clusterOrgs.orgName })
      .from(clusterOrgs)
      .innerJoin(orgMembers, eq(orgMembers.orgName, clusterOrgs.orgName))
      .where(eq(orgMembers.userId, userId)),
    db
      .select({ name: clusterMembers.clusterName, role: clusterMembers.role })
      .from(clusterMembers)
      .where(eq(clusterMembers.userId, userId)),
    db
      .select({
        cluster: projects.clusterName,
        org: projects.orgName,
        name: projects.name,
        role: projectMembers.role,
      })
      .from(projectMembers)
      .innerJoin(projects, eq(projects.id, projectMembers.projectId))
      .where(eq(projectMembers.userId, userId))
      .orderBy(projects.clusterName, projects.orgName, projects.name),
    db
      .select({ uri: permissions.uri, action: permissions.action })
      .from(permissions)
      .where(eq(permissions.userId, userId)),
    // The token row stays when the token is revoked, so the user stays a service account.
    db
      .select({
        cluster: projects.clusterName,
        org: projects.orgName,
        project: projects.name,
        role: projectTokens.role,
      })
      .from(projectTokens)
      .innerJoin(projects, eq(projects.id, projectTokens.projectId))
      .where(eq(projectTokens.userId, userId)),
  ]);
  return { orgs, orgClusters, clusters, projectRoles, shares, tokens };
}

/** A user's role in an organization, or null when they are not a member. */
export async function orgMemberRole(db: Db, userId: string, org: string): Promise<string | null> {
  const [row] = await db
    .select({ role: orgMembers.role })
    .from(orgMembers)
    .where(and(eq(orgMembers.userId, userId), eq(orgMembers.orgName, org)));
  return row?.role ?? null;
}

export const signingKeyRows = async (db: Db) =>
  (await db.select().from(signingKeys)).map((r) => r.jwk as JWK);

/** Stores a signing key unless one of its id is there: replicas starting together race here. */
export async function insertSigningKey(db: Db, kid: string, jwk: JWK) {
  await db.insert(signingKeys).values({ kid, jwk }).onConflictDoNothing();
}
