import type { PGlite } from '@electric-sql/pglite';
import type pg from 'pg';

/**
 * The access epoch: a number that changes whenever anything that grants access changes (the
 * triggers of migration 0005 bump `access_epoch` in the writing transaction and notify
 * `orrery_access`). `read()` answers a value observed after it was called, so that a request
 * never trusts a cache older than its own arrival.
 */
export interface AccessEpoch {
  read(): number | Promise<number>;
  close(): Promise<void>;
}

export const ACCESS_CHANNEL = 'orrery_access';

/** A new epoch at every read: nothing is shared between requests. */
export function uncachedEpoch(): AccessEpoch {
  let value = 0;
  return { read: () => ++value, close: async () => undefined };
}

/**
 * PGlite is one process, and it delivers a notification before the promise of the writing query
 * (or of its transaction's COMMIT) resolves: an in-process counter bumped by LISTEN is exact, and
 * reading it costs nothing.
 */
export async function pgliteEpoch(client: PGlite): Promise<AccessEpoch> {
  let value = 0;
  const unlisten = await client.listen(ACCESS_CHANNEL, () => void value++);
  return { read: () => value, close: unlisten };
}

/**
 * On PostgreSQL another replica may have made the change, and a notification may still be on
 * its way when the next request arrives, so the row itself is read. Reads are single-flight: a
 * request joins the read that starts next (never one already running, which may predate its
 * arrival), so concurrent requests share one round trip and at most two reads are outstanding.
 */
export function postgresEpoch(pool: pg.Pool): AccessEpoch {
  const readRow = async () => {
    const r = await pool.query<{ value: string }>({
      name: 'orrery_access_epoch',
      text: 'select value from access_epoch where id = 1',
    });
    return Number(r.rows[0]?.value ?? 0);
  };
  return { read: singleFlight(readRow), close: async () => undefined };
}

/** `read` shared by callers: each gets the result of a call started after its own. */
export function singleFlight(read: () => Promise<number>): () => Promise<number> {
  let running: Promise<number> | null = null;
  let next: Promise<number> | null = null;
  const start = () => (running = read().finally(() => (running = null)));
  return () => {
    if (next) return next;
    if (!running) return start();
    next = running
      .catch(() => undefined)
      .then(() => {
        next = null;
        return start();
      });
    return next;
  };
}
