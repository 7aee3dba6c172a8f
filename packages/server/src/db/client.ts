import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import type { PGlite } from '@electric-sql/pglite';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import * as schema from './schema.js';
import { pgliteEpochs, postgresEpochs, type Epochs } from './epochs.js';
import { drizzleParsers, withClientParsers } from './pglite.js';
import { localEvents, postgresEvents, type EventBus } from './events.js';
import { AdvisoryLocks, LOCK_NAMESPACES, withMigrationLock } from './advisory-locks.js';
import { closeTree, keepPrivate } from './private-dir.js';

export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;
export interface Database {
  db: Db;
  kind: 'pglite' | 'postgres';
  /** The PostgreSQL URL; none on PGlite. */
  url?: string;
  /** Counters of changes, for caches shared between requests (epochs.ts). */
  epochs: Epochs;
  /** Events between replicas (events.ts). */
  events: EventBus;
  /** The locks that keep each background loop on one replica (advisory-locks.ts). */
  loops: AdvisoryLocks;
  /** Round trip to the database, for /readyz. */
  ping(): Promise<void>;
  close(): Promise<void>;
}

export interface PgliteAssets {
  wasmModule: WebAssembly.Module;
  fsBundle: Blob;
}

export const MIGRATIONS = fileURLToPath(new URL('../../drizzle', import.meta.url));

/**
 * PostgreSQL when a URL is given, else PGlite: persisted under `dataDir/pgdata`, or in memory
 * when `dataDir` is null (tests). The same migrations run on both, at every start.
 */
export async function openDatabase(opts: {
  url?: string;
  dataDir: string | null;
  /** Told when an idle PostgreSQL connection is lost (server restart, admin termination). */
  onConnectionError?: (error: Error) => void;
  /** Told when this replica starts leading a background loop (PostgreSQL). */
  onLoopTaken?: (name: string) => void;
  /**
   * An in-memory PGlite starts from this data directory instead of initdb, which takes seconds
   * (tests start hundreds of servers: test/pglite-seed.ts makes a migrated one once per run).
   */
  seed?: Blob;
  /**
   * PGlite's compiled WebAssembly module and file bundle, made once and shared by the servers of
   * one process (tests): compiling and unpacking them again took a fifth of each start.
   */
  pgliteAssets?: PgliteAssets;
}): Promise<Database> {
  if (opts.url) {
    const pg = await import('pg');
    const { drizzle } = await import('drizzle-orm/node-postgres');
    const { migrate } = await import('drizzle-orm/node-postgres/migrator');
    const pool = new pg.default.Pool({ connectionString: opts.url, max: 10 });
    // Without a listener a lost idle connection would crash the process; the pool replaces it.
    pool.on('error', (error) => opts.onConnectionError?.(error));
    const db = drizzle(pool, { schema }) as unknown as Db;
    await withMigrationLock(pool, () =>
      migrate(drizzle(pool, { schema }), { migrationsFolder: MIGRATIONS }),
    );
    const lost = opts.onConnectionError;
    const events = await postgresEvents(opts.url, pool, lost);
    const loops = new AdvisoryLocks({ kind: 'postgres', url: opts.url }, LOCK_NAMESPACES.loops, {
      onTaken: opts.onLoopTaken,
      onLost: (_names, error) => lost?.(error),
    });
    return {
      db,
      kind: 'postgres',
      url: opts.url,
      epochs: postgresEpochs(pool),
      events,
      loops,
      ping: async () => void (await pool.query('select 1')),
      close: async () => {
        await loops.close();
        await events.close();
        await pool.end();
      },
    };
  }
  const { PGlite } = await import('@electric-sql/pglite');
  const { drizzle } = await import('drizzle-orm/pglite');
  const { migrate } = await import('drizzle-orm/pglite/migrator');
  let dir: string | undefined;
  if (opts.dataDir) {
    dir = join(opts.dataDir, 'pgdata');
    keepPrivate(dir);
  }
  // The options-only form: with an undefined directory, the two-argument form ran initdb in spite
  // of loadDataDir (3–4 s instead of 1.3–1.9 s, measured).
  const client = new PGlite({
    dataDir: dir,
    parsers: drizzleParsers,
    ...(opts.seed && !dir ? { loadDataDir: opts.seed } : {}),
    ...(opts.pgliteAssets
      ? { pgliteWasmModule: opts.pgliteAssets.wasmModule, fsBundle: opts.pgliteAssets.fsBundle }
      : {}),
  });
  await client.waitReady;
  if (dir) closeTree(dir);
  const d = drizzle({ client: withClientParsers(client) as unknown as PGlite, schema });
  await migrate(d, { migrationsFolder: MIGRATIONS });
  const epochs = await pgliteEpochs(client);
  return {
    db: d as unknown as Db,
    kind: 'pglite',
    epochs,
    events: localEvents(),
    loops: new AdvisoryLocks({ kind: 'pglite' }, LOCK_NAMESPACES.loops),
    ping: async () => void (await client.query('select 1')),
    close: async () => {
      await epochs.close();
      await client.close();
    },
  };
}

export { schema };
