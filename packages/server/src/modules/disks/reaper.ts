import type { FastifyBaseLogger } from 'fastify';
import type { AppContext } from '../../context.js';
import type { Db } from '../../db/client.js';
import { whileLeading } from '../../db/advisory-locks.js';
import { expiredDisks } from './store.js';
import { deleteDisk, type DiskHolders } from './service.js';

export const REAP_EVERY_MS = 60_000;

type ReaperContext = Pick<AppContext, 'db' | 'config' | 'database'>;

async function reapWith(
  ctx: ReaperContext,
  holders: DiskHolders,
  db: Db,
  now: Date,
  log?: FastifyBaseLogger,
) {
  const deleted: string[] = [];
  for (const d of await expiredDisks(db, now)) {
    // A disk mounted by a running workload is in use, so not unused: it waits for the next tick.
    if (await holders.inUse(d.id)) continue;
    try {
      await deleteDisk({ ...ctx, db }, holders, d);
      deleted.push(d.id);
      log?.info({ disk: d.id }, 'deleted a disk whose lifespan passed');
    } catch (err) {
      log?.error({ err, disk: d.id }, 'could not delete an expired disk');
    }
  }
  return deleted;
}

/**
 * One pass of the lifespan loop: deletes disks whose `life_span` has passed since their last use
 * (or creation). With many replicas only the one leading the loop does the work
 * (db/advisory-locks.ts); the others pass and answer nothing.
 */
export async function reapExpiredDisks(
  ctx: ReaperContext,
  holders: DiskHolders,
  now = new Date(),
  log?: FastifyBaseLogger,
): Promise<string[]> {
  let deleted: string[] = [];
  await whileLeading(ctx.database.loops, 'disk-reaper', async () => {
    deleted = await reapWith(ctx, holders, ctx.db, now, log);
  });
  return deleted;
}

/** Runs `reapExpiredDisks` every `everyMs`; `stop` waits for a pass in flight. */
export function startDiskReaper(
  ctx: ReaperContext,
  holders: DiskHolders,
  log: FastifyBaseLogger,
  everyMs = REAP_EVERY_MS,
) {
  let running: Promise<unknown> | null = null;
  const timer = setInterval(() => {
    if (running) return;
    running = reapExpiredDisks(ctx, holders, new Date(), log)
      .catch((err: unknown) => log.error({ err }, 'disk lifespan pass failed'))
      .finally(() => {
        running = null;
      });
  }, everyMs);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
