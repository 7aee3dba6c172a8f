import type { AppContext } from '../../../context.js';
import { AdvisoryLocks, LOCK_NAMESPACES } from '../../../db/advisory-locks.js';

/**
 * Which replica drives an attempt: the one holding the session-level advisory lock of the
 * attempt's id (db/advisory-locks.ts), on a connection of its own, so that a replica that dies
 * lets go of its attempts at once.
 */
export class AttemptLocks extends AdvisoryLocks {
  constructor(ctx: Pick<AppContext, 'database'>) {
    super(ctx.database, LOCK_NAMESPACES.attempts);
  }
}
