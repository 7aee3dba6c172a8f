import type { UserWire } from '@orrery/contract';
import type { Db } from '../../db/client.js';
import type { Principal } from '../../auth/principal.js';
import { notFound } from '../../http/errors.js';
import { orgsOfUser } from '../orgs/store.js';
import { orgWire } from '../orgs/wire.js';
import { projectsOfUser } from '../projects/store.js';
import { projectWire } from '../projects/wire.js';
import { visibleClusters } from '../clusters/visible.js';
import { userByUsername, type UserRow } from './store.js';

/**
 * A user's own record is theirs to read and change; a system admin may read anyone's. To anyone
 * else the user does not exist.
 */
export async function userVisibleTo(db: Db, caller: Principal, username: string): Promise<UserRow> {
  if (caller.username !== username && caller.systemRole !== 'admin')
    throw notFound('User not found');
  const user = await userByUsername(db, username);
  if (!user) throw notFound('User not found');
  return user;
}

export async function userWire(
  db: Db,
  user: UserRow,
  include: readonly string[],
): Promise<UserWire> {
  const wire: UserWire = {
    username: user.username,
    name: user.name,
    email: user.email,
    email_verified: user.emailVerified,
    terms_accepted: user.termsAcceptedAt !== null,
    picture: user.picture,
  };
  if (include.includes('system_role'))
    wire.system_role = (user.systemRole as 'admin' | null) ?? null;
  const needOrgs = include.includes('orgs') || include.includes('clusters');
  const orgs = needOrgs ? await orgsOfUser(db, user.id) : [];
  if (include.includes('orgs')) {
    wire.orgs = orgs.map(orgWire);
  }
  if (include.includes('clusters')) {
    const principal = { id: user.id, systemRole: user.systemRole } as Principal;
    wire.clusters = await visibleClusters(
      db,
      principal,
      orgs.map((o) => o.name),
    );
  }
  if (include.includes('projects')) {
    wire.projects = (await projectsOfUser(db, user.id)).map((p) => {
      const w = projectWire(p);
      return {
        name: w.name,
        org_name: w.org_name,
        cluster_name: w.cluster_name,
        role: p.role ?? 'reader',
      };
    });
  }
  return wire;
}
