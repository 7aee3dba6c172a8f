import type { Db } from '../db/client.js';
import type { EpochSnapshot } from '../db/epoch-cache.js';
import { clusterLinks, clusterNames } from '../modules/clusters/store.js';
import { userByUsername, type UserRow } from '../modules/users/store.js';
import { membershipsOf, type Memberships } from './memberships.js';
import { grantsOf, type Grant } from './permissions.js';
import type { Principal } from './principal.js';

/**
 * What a request knows about access, as of the `access` epoch it read on arrival: the user row of
 * a token's username, the caller's memberships and grants, and every cluster with its linked
 * organizations (what an administrator sees). Loaded once per user and epoch and shared by the
 * requests of that epoch; any change to what grants access changes the epoch (db/epochs.ts), so
 * a removed member or a lowered role loses access at the next request, on every replica.
 */
export interface AccessSnapshot extends EpochSnapshot {
  user(username: string): Promise<UserRow | null>;
  memberships(user: Principal): Promise<Memberships>;
  grants(user: Principal): Promise<Grant[]>;
  clusters(): Promise<{ names: string[]; links: { cluster: string; org: string }[] }>;
}

export function accessOf(db: Db, snap: EpochSnapshot): AccessSnapshot {
  const access = <T>(key: string, load: () => Promise<T>) => snap.cached('access', key, load);
  const memberships = (user: Principal) => access(`m:${user.id}`, () => membershipsOf(db, user.id));
  return {
    ...snap,
    user: (username) => access(`u:${username}`, () => userByUsername(db, username)),
    memberships,
    grants: (user) =>
      access(`g:${user.id}:${user.systemRole ?? ''}`, () => grantsOf(db, user, memberships)),
    clusters: () =>
      access('clusters', async () => {
        const [names, links] = await Promise.all([clusterNames(db), clusterLinks(db)]);
        return { names, links };
      }),
  };
}
