import type pg from 'pg';
import type { Database } from './client.js';

/** The first key of each family of advisory locks; names hash into the second (`hashtext`). */
export const LOCK_NAMESPACES = {
  /** Background loops: one replica runs each (`whileLeading`). */
  loops: 0x0f00,
  /** Bake attempts: one replica drives each (flows/engine/lock.ts). */
  attempts: 0x0f10,
  /** Migrations: one replica applies them while the others starting with it wait. */
  migrations: 0x0f20,
} as const;

export interface LockHooks {
  /** This replica took lock `name` (the log says which replica leads what). */
  onTaken?: (name: string) => void;
  /** The connection was lost, and with it the locks it held. */
  onLost?: (names: string[], error: Error) => void;
}

type LockFn = 'pg_try_advisory_lock' | 'pg_advisory_unlock';
/** The session that holds the locks: calls a lock function for a name, returns its answer. */
type Session = (fn: LockFn, name: string) => Promise<boolean>;

/**
 * Session-level PostgreSQL advisory locks `(namespace, hashtext(name))` on a connection of their
 * own, so that a replica that dies (or loses that connection) lets go of everything it held at
 * once and another replica takes over. On PGlite there is one process, hence one replica: every
 * lock is granted (a no-op lock), which is exact there.
 */
export class AdvisoryLocks {
  private session: Promise<Session> | null = null;
  private readonly held = new Set<string>();
  private closer: (() => Promise<void>) | null = null;

  constructor(
    private readonly database: Pick<Database, 'kind' | 'url'>,
    private readonly namespace: number,
    private readonly hooks: LockHooks = {},
  ) {}

  /** The names this replica holds. */
  heldIds() {
    return [...this.held];
  }

  /** True when this replica holds (or now took) the lock `name`; false when another holds it. */
  async take(name: string): Promise<boolean> {
    if (this.held.has(name)) return true;
    const session = await this.open();
    if (!(await session('pg_try_advisory_lock', name))) return false;
    this.held.add(name);
    this.hooks.onTaken?.(name);
    return true;
  }

  async release(name: string) {
    if (!this.held.delete(name)) return;
    await (
      await this.open()
    )('pg_advisory_unlock', name);
  }

  async close() {
    this.held.clear();
    const close = this.closer;
    this.session = null;
    this.closer = null;
    await close?.();
  }

  private open(): Promise<Session> {
    this.session ??= this.connect().catch((e: unknown) => {
      this.session = null;
      throw e;
    });
    return this.session;
  }

  private async connect(): Promise<Session> {
    const url = this.database.url;
    if (this.database.kind !== 'postgres' || !url) return async () => true;
    const pg = await import('pg');
    const client = new pg.default.Client({ connectionString: url });
    const lost = (error: Error) => {
      // A lost connection lost its locks too: forget them, another replica may take them.
      const names = this.heldIds();
      this.held.clear();
      this.session = null;
      this.closer = null;
      if (names.length) this.hooks.onLost?.(names, error);
    };
    client.on('error', lost);
    client.on('end', () => {
      if (this.closer) lost(new Error('the lock connection ended'));
    });
    await client.connect();
    this.closer = async () => {
      this.closer = null;
      await client.end();
    };
    const namespace = this.namespace;
    // One statement at a time on the connection (loops ask for their locks concurrently).
    let queue: Promise<unknown> = Promise.resolve();
    return (fn, name) => {
      const asked = queue.then(() =>
        client.query<{ ok: boolean }>(`select ${fn}(${namespace}, hashtext($1)) as ok`, [name]),
      );
      // The caller gets the failure through `asked`; the queue only keeps statements in order.
      queue = asked.catch(() => undefined);
      return asked.then((res) => res.rows[0]?.ok === true);
    };
  }
}

/**
 * Runs one pass of background loop `name` on the one replica that holds its lock, taking it when
 * free: the others skip the pass and keep asking, so when the holder stops or dies another takes
 * over within one period. Returns whether this replica ran the pass.
 */
export async function whileLeading(
  locks: AdvisoryLocks,
  name: string,
  pass: () => Promise<unknown>,
): Promise<boolean> {
  if (!(await locks.take(name))) return false;
  await pass();
  return true;
}

/**
 * Runs `migrate` under a lock of the whole database, so that replicas started together apply
 * the migrations once: the others wait, then find nothing left to apply.
 */
export async function withMigrationLock<T>(pool: pg.Pool, migrate: () => Promise<T>): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query(`select pg_advisory_lock(${LOCK_NAMESPACES.migrations}, 0)`);
    try {
      return await migrate();
    } finally {
      await client.query(`select pg_advisory_unlock(${LOCK_NAMESPACES.migrations}, 0)`);
    }
  } finally {
    client.release();
  }
}
