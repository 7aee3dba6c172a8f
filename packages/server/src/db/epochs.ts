import type { PGlite } from '@electric-sql/pglite';
import type pg from 'pg';

/**
 * Epochs: numbers that change whenever what they count changes. The triggers of migration 0005
 * bump a row of `epochs` in the writing transaction and notify `orrery_epoch`:
 * - `access`: anything that grants access (users, memberships, roles, shares, cluster links);
 * - `secrets`: a project's secrets; `jobs`: jobs and their status history.
 * Caches keyed by an epoch (epoch-cache.ts) are exact: `read()` answers values observed after it
 * was called, so a request never trusts a cache older than its own arrival.
 */
export const EPOCH_NAMES = ['access', 'secrets', 'jobs'] as const;
export type EpochName = (typeof EPOCH_NAMES)[number];
export type EpochValues = Readonly<Record<EpochName, number>>;

export interface Epochs {
  read(): EpochValues | Promise<EpochValues>;
  close(): Promise<void>;
}

export const EPOCH_CHANNEL = 'orrery_epoch';

const zeros = (): EpochValues => ({ access: 0, secrets: 0, jobs: 0 });

/** New values at every read: nothing is shared between requests. */
export function uncachedEpochs(): Epochs {
  let n = 0;
  return {
    read: () => {
      n += 1;
      return { access: n, secrets: n, jobs: n };
    },
    close: async () => undefined,
  };
}

/**
 * PGlite is one process, and it delivers a notification before the promise of the writing query
 * (or of its transaction's COMMIT) resolves: in-process counters bumped by LISTEN are exact, and
 * reading them costs nothing. Each bump makes a new object, so a request keeps the values it read.
 */
export async function pgliteEpochs(client: PGlite): Promise<Epochs> {
  let values = zeros();
  const unlisten = await client.listen(EPOCH_CHANNEL, (name) => {
    if (name in values) values = { ...values, [name]: values[name as EpochName] + 1 };
  });
  return { read: () => values, close: unlisten };
}

/**
 * On PostgreSQL another replica may have made the change, and a notification may still be on
 * its way when the next request arrives, so the rows themselves are read. Reads are single-flight:
 * a request joins the read that starts next (never one already running, which may predate its
 * arrival), so concurrent requests share one round trip and at most two reads are outstanding.
 */
export function postgresEpochs(pool: pg.Pool): Epochs {
  const readRows = async () => {
    const r = await pool.query<{ name: string; value: string }>({
      name: 'orrery_epochs',
      text: 'select name, value from epochs',
    });
    const values: Record<string, number> = { ...zeros() };
    for (const row of r.rows) values[row.name] = Number(row.value);
    return values as EpochValues;
  };
  return { read: singleFlight(readRows), close: async () => undefined };
}

/** `read` shared by callers: each gets the result of a call started after its own. */
export function singleFlight<T>(read: () => Promise<T>): () => Promise<T> {
  let running: Promise<T> | null = null;
  let next: Promise<T> | null = null;
  const start = () => (running = read().finally(() => (running = null)));
  return () => {
    if (next) return next;
    if (!running) return start();
    // The failed read's own callers get its error; the read after it starts all the same.
    next = running
      .catch(() => undefined)
      .then(() => {
        next = null;
        return start();
      });
    return next;
  };
}
