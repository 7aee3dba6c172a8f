import type { Db } from '../../db/client.js';
import type { Principal } from '../../auth/principal.js';
import type { Refinement } from '../permissions/check.js';
import { diskByIdOrName, type DiskRow } from './store.js';

/** The owner manages their disk whatever their role; anyone else needs manage on it. */
export const ownsDisk = (disk: Pick<DiskRow, 'ownerId'>, caller: Principal) =>
  disk.ownerId === caller.id;

/** `manage` on `disk://CLUSTER/ORG/PROJECT/ID` (deleting it) is also its owner's. */
export const diskOwnerRefinement =
  (db: Db): Refinement =>
  async ({ caller, parsed, action }) => {
    const s = parsed.segments;
    if (parsed.scheme !== 'disk' || s.length !== 4 || action !== 'manage') return null;
    const disk = await diskByIdOrName(db, { cluster: s[0], org: s[1], project: s[2] }, s[3]);
    return disk && ownsDisk(disk, caller) ? { allowed: true, reason: null } : null;
  };
