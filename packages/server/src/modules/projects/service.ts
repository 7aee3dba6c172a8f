import type { Db } from '../../db/client.js';
import type { Principal } from '../../auth/principal.js';
import { conflict, notFound } from '../../http/errors.js';
import { orgRoleOf } from '../../auth/permissions.js';
import { clusterLinked, insertProject, projectExists, type NewProject } from './store.js';

export const PROJECT_TAKEN = 'Project with such name already exits';

/**
 * Where a user may create a project: in an organization they belong to (a system admin: any), on a
 * cluster linked to that organization. Anything else looks like it does not exist.
 */
export async function assertProjectPlace(db: Db, caller: Principal, cluster: string, org: string) {
  if (caller.systemRole !== 'admin' && !(await orgRoleOf(db, caller.id, org))) {
    throw notFound('Organization not found');
  }
  if (!(await clusterLinked(db, cluster, org)))
    throw notFound(`Cluster ${cluster} is not available to organization ${org}`);
}

/** Creates a project with its creator as admin. */
export async function createProject(db: Db, caller: Principal, p: NewProject) {
  await assertProjectPlace(db, caller, p.clusterName, p.orgName);
  if (await projectExists(db, p.clusterName, p.orgName, p.name))
    throw conflict(PROJECT_TAKEN, 'name');
  if (!(await insertProject(db, p, caller.id))) throw conflict(PROJECT_TAKEN, 'name');
}
