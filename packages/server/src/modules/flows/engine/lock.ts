import { sql } from 'drizzle-orm';
import type { AppContext } from '../../../context.js';

/** The first key of the engine's advisory locks: attempts hash into the second. */
const LOCK_NAMESPACE = 0x0f10;

type LockFn = 'pg_try_advisory_lock' | 'pg_advisory_unlock';
/** The session that holds the locks: calls a lock function for an attempt, returns its answer. */
type Session = (fn: LockFn, attemptId: string) => Promise<boolean>;

/**
 * Which replica drives an attempt: the one holding the session-level advisory lock
 * `(LOCK_NAMESPACE, hashtext(attempt id))`. On PostgreSQL the locks live on a connection of their
 * own, so a replica that dies (or loses that connection) lets go of its attempts at once; on
 * PGlite the one process's session takes them through the same statements.
 */
export class AttemptLocks {
  private session: Promise<Session> | null = null;
  private readonly held = new Set<string>();
  private closer: (() => Promise<void>) | null = null;

  constructor(private readonly ctx: AppContext) {}

  /** The attempts this replica holds. */
  heldIds() {
    return [...this.held];
  }

  /** True when this replica holds (or now took) the attempt's lock. */
  async take(attemptId: string): Promise<boolean> {
    if (this.held.has(attemptId)) return true;
    const session = await this.open();
    if (!(await session('pg_try_advisory_lock', attemptId))) return false;
    this.held.add(attemptId);
    return true;
  }

  async release(attemptId: string) {
    if (!this.held.delete(attemptId)) return;
    await (
      await this.open()
    )('pg_advisory_unlock', attemptId);
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
    const url = this.ctx.config.databaseUrl;
    if (this.ctx.database.kind !== 'postgres' || !url) {
      const db = this.ctx.db;
      return async (fn, id) => {
        const res = (await db.execute(
          sql`select ${sql.raw(`${fn}(${LOCK_NAMESPACE}`)}, hashtext(${id})) as ok`,
        )) as { rows: { ok: boolean }[] };
        return res.rows[0]?.ok === true;
      };
    }
    const pg = await import('pg');
    const client = new pg.default.Client({ connectionString: url });
    // A lost connection lost its locks too: forget them, another replica may take the attempts.
    client.on('error', () => {
      this.held.clear();
      this.session = null;
      this.closer = null;
    });
    await client.connect();
    this.closer = () => client.end();
    return async (fn, id) => {
      const res = await client.query<{ ok: boolean }>(
        `select ${fn}(${LOCK_NAMESPACE}, hashtext($1)) as ok`,
        [id],
      );
      return res.rows[0]?.ok === true;
    };
  }
}
