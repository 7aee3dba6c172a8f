import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { AppContext } from '../../context.js';
import type { Db } from '../../db/client.js';
import { expiredDisks } from './store.js';
import { deleteDisk, isDiskInUse } from './service.js';

export const REAP_EVERY_MS = 60_000;
/** Advisory lock key of this loop ("disk" in ASCII); one replica at a time runs a tick. */
const LOCK_KEY = 0x6469736b;

type ReaperContext = Pick<AppContext, 'db' | 'config' | 'database'>;

async function reapWith(ctx: ReaperContext, db: Db, now: Date, log?: FastifyBaseLogger) {
  const deleted: string[] = [];
  for (const d of await expiredDisks(db, now)) {
    // A disk mounted by a running workload is in use, so not unused: it waits for the next tick.
    if (await isDiskInUse(d.id)) continue;
    try {
      await deleteDisk({ ...ctx, db }, d);
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
 * (or creation). On PostgreSQL the pass runs under a transaction-level advisory lock, so with many
 * replicas only one does the work; PGlite has a single process and needs none.
 */
export async function reapExpiredDisks(
  ctx: ReaperContext,
  now = new Date(),
  log?: FastifyBaseLogger,
): Promise<string[]> {
  if (ctx.database.kind !== 'postgres') return reapWith(ctx, ctx.db, now, log);
  return ctx.db.transaction(async (tx) => {
    // Both drivers answer raw SQL with `{ rows }`; the generic Db type does not say so.
    const res = (await tx.execute(
      sql`select pg_try_advisory_xact_lock(${LOCK_KEY}) as locked`,
    )) as { rows: { locked: boolean }[] };
    if (!res.rows[0]?.locked) return [];
    return reapWith(ctx, tx as unknown as Db, now, log);
  });
}

/** Runs `reapExpiredDisks` every `everyMs`; `stop` waits for a pass in flight. */
export function startDiskReaper(
  ctx: ReaperContext,
  log: FastifyBaseLogger,
  everyMs = REAP_EVERY_MS,
) {
  let running: Promise<unknown> | null = null;
  const timer = setInterval(() => {
    if (running) return;
    running = reapExpiredDisks(ctx, new Date(), log)
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
