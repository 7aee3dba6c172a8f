import type { Db } from '../../db/client.js';
import type { Principal } from '../../auth/principal.js';
import { conflict, forbidden } from '../../http/errors.js';
import { adminOrgs, insertOrg, orgExists, orgsOfUser } from './store.js';

export const ORG_TAKEN = 'Organization with such name already exits';
export const VERIFY_FIRST = 'Verify your e-mail address before creating an organization';

/**
 * Creates an organization with the caller as its admin. With the embedded defaults the new
 * organization is linked to the local cluster `default` (while it exists) at once, so that a
 * newcomer can go on to a project; `apolo admin add-org --skip-default-tenants` asks not to.
 */
export async function createOrg(
  db: Db,
  caller: Principal,
  name: string,
  { linkLocalCluster = true } = {},
) {
  if (!caller.emailVerified) throw forbidden(VERIFY_FIRST);
  if (await orgExists(db, name)) throw conflict(ORG_TAKEN, 'name');
  if (!(await insertOrg(db, name, caller.id, linkLocalCluster))) throw conflict(ORG_TAKEN, 'name');
}

/** The organizations the user belongs to, with their role in each. */
export const userOrgs = (db: Db, userId: string) => orgsOfUser(db, userId);

/** One organization the user belongs to, or undefined. */
export const userOrg = async (db: Db, userId: string, name: string) =>
  (await orgsOfUser(db, userId)).find((o) => o.name === name);

/** One organization as the admin API shows it (it exists). */
export const adminOrg = async (db: Db, name: string) =>
  (await adminOrgs(db)).find((o) => o.name === name)!;

/** Whether an organization of that name exists. */
export const orgNamed = (db: Db, name: string) => orgExists(db, name);
