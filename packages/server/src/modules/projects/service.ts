import type { Db } from '../../db/client.js';
import type { Principal } from '../../auth/principal.js';
import { isManagerRole } from '@orrery/contract';
import { conflict, notFound } from '../../http/errors.js';
import { orgRoleOf } from '../../auth/permissions.js';
import {
  clusterLinked,
  insertProject,
  projectByPath,
  projectExists,
  projectId,
  projectsIn,
  type NewProject,
} from './store.js';

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

/** Creates a project with its creator as admin; answers it as its creator sees it. */
export async function createProject(db: Db, caller: Principal, p: NewProject) {
  await assertProjectPlace(db, caller, p.clusterName, p.orgName);
  if (await projectExists(db, p.clusterName, p.orgName, p.name))
    throw conflict(PROJECT_TAKEN, 'name');
  if (!(await insertProject(db, p, caller.id))) throw conflict(PROJECT_TAKEN, 'name');
  return (await projectByPath(db, p.clusterName, p.orgName, p.name, caller.id))!;
}

/** Whether a project of that name exists where the caller may create one. */
export async function projectNameTaken(
  db: Db,
  caller: Principal,
  p: { cluster: string; org: string; name: string },
) {
  await assertProjectPlace(db, caller, p.cluster, p.org);
  return projectExists(db, p.cluster, p.org, p.name);
}

/**
 * The projects of an organization on a cluster that the caller sees: every one for its managers
 * (and a system admin), their own for the rest.
 */
export async function projectsVisibleTo(db: Db, caller: Principal, cluster: string, org: string) {
  const all = await projectsIn(db, cluster, org, caller.id);
  const seesAll =
    caller.systemRole === 'admin' || isManagerRole(await orgRoleOf(db, caller.id, org));
  return seesAll ? all : all.filter((p) => p.role !== null);
}

/** A project by its place, with the caller's role in it; 404 when there is none. */
export async function projectAt(
  db: Db,
  caller: Principal,
  p: { cluster: string; org: string; project: string },
) {
  const found = await projectByPath(db, p.cluster, p.org, p.project, caller.id);
  if (!found) throw notFound('Project not found');
  return found;
}

/** A project's id by its place; 404 (with `missing` as the reason) when there is none. */
export async function projectIdAt(
  db: Db,
  p: { cluster: string; org: string; project: string },
  missing = 'Project not found',
) {
  const id = await projectId(db, p.cluster, p.org, p.project);
  if (!id) throw notFound(missing);
  return id;
}
