import type { Db } from '../db/client.js';
import type { AccessEpoch } from '../db/access-epoch.js';
import { clusterOrgs, clusters } from '../db/schema.js';
import { userByUsername, type UserRow } from '../modules/users/store.js';
import { membershipsOf, type Memberships } from './memberships.js';
import { grantsOf, type Grant } from './permissions.js';
import type { Principal } from './principal.js';

/**
 * What a request knows about access, as of an access epoch read after the request arrived: the
 * user row of a token's username, the caller's memberships and grants, and the cluster names
 * (what an administrator sees). Loaded once per user and epoch and shared by the requests of that
 * epoch; a change to anything that grants access changes the epoch (db/access-epoch.ts), so a
 * removed member or a lowered role loses access at the next request, on every replica.
 */
export interface AccessSnapshot {
  user(username: string): Promise<UserRow | null>;
  memberships(user: Principal): Promise<Memberships>;
  grants(user: Principal): Promise<Grant[]>;
  /** Every cluster and every organization linked to one (what an administrator sees). */
  clusters(): Promise<{ names: string[]; links: { cluster: string; org: string }[] }>;
}

export interface AccessCache {
  snapshot(): Promise<AccessSnapshot>;
}

/** Entries kept per epoch before the cache starts over (a bound on memory, not a policy). */
const MAX_ENTRIES = 50_000;

export function createAccessCache(db: Db, epoch: AccessEpoch): AccessCache {
  let at = -1;
  let entries = new Map<string, Promise<unknown>>();

  /** `load` once per key at epoch `e`; a request holding an older epoch loads without caching. */
  function memo<T>(e: number, key: string, load: () => Promise<T>): Promise<T> {
    if (e > at) {
      at = e;
      entries = new Map();
    }
    if (e < at) return load();
    let found = entries.get(key) as Promise<T> | undefined;
    if (!found) {
      if (entries.size >= MAX_ENTRIES) entries = new Map();
      found = load();
      entries.set(key, found);
      // A failed load (database unavailable) is not remembered.
      const mine = found;
      found.catch(() => {
        if (entries.get(key) === mine) entries.delete(key);
      });
    }
    return found;
  }

  const snapshotAt = (e: number): AccessSnapshot => {
    const memberships = (user: Principal) =>
      memo(e, `m:${user.id}`, () => membershipsOf(db, user.id));
    return {
      user: (username) => memo(e, `u:${username}`, () => userByUsername(db, username)),
      memberships,
      grants: (user) =>
        memo(e, `g:${user.id}:${user.systemRole ?? ''}`, () => grantsOf(db, user, memberships)),
      clusters: () =>
        memo(e, 'clusters', async () => {
          const [names, links] = await Promise.all([
            db.select({ name: clusters.name }).from(clusters),
            db
              .select({ cluster: clusterOrgs.clusterName, org: clusterOrgs.orgName })
              .from(clusterOrgs),
          ]);
          return { names: names.map((c) => c.name), links };
        }),
    };
  };
  return { snapshot: async () => snapshotAt(await epoch.read()) };
}
