import { and, asc, eq, isNull } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { projects, users } from '../../db/schema.js';
import { projectTokens } from './tables.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const columns = {
  id: projectTokens.id,
  projectId: projectTokens.projectId,
  name: projectTokens.name,
  role: projectTokens.role,
  owner: users.username,
  cluster: projects.clusterName,
  org: projects.orgName,
  project: projects.name,
  createdAt: projectTokens.createdAt,
};

export interface AccountRow {
  id: string;
  projectId: string;
  name: string;
  role: string;
  owner: string | null;
  cluster: string;
  org: string;
  project: string;
  createdAt: Date;
}

/**
 * The service accounts a user made: their project tokens that are not revoked (Apolo deletes an
 * account; we revoke the token, which leaves it out of here). Oldest first, as Apolo lists them.
 */
export function accountsOf(db: Db, ownerId: string, idOrName?: string): Promise<AccountRow[]> {
  // Token names never look like a UUID (at most 30 characters), so an id cannot match a name.
  const which =
    idOrName === undefined
      ? undefined
      : UUID.test(idOrName)
        ? eq(projectTokens.id, idOrName.toLowerCase())
        : eq(projectTokens.name, idOrName);
  return db
    .select(columns)
    .from(projectTokens)
    .innerJoin(projects, eq(projects.id, projectTokens.projectId))
    .leftJoin(users, eq(users.id, projectTokens.createdBy))
    .where(and(eq(projectTokens.createdBy, ownerId), isNull(projectTokens.revokedAt), which))
    .orderBy(asc(projectTokens.createdAt));
}

/** Projects of a name on a cluster, for a service account created without `default_org`. */
export function projectsNamed(db: Db, cluster: string, name: string) {
  return db
    .select({ id: projects.id, org: projects.orgName })
    .from(projects)
    .where(and(eq(projects.clusterName, cluster), eq(projects.name, name)));
}
