import { fileURLToPath } from 'node:url';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { PGlite } from '@electric-sql/pglite';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import * as schema from './schema.js';
import { pgliteEpochs, postgresEpochs, type Epochs } from './epochs.js';
import { drizzleParsers, withClientParsers } from './pglite.js';

export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;
export interface Database {
  db: Db;
  kind: 'pglite' | 'postgres';
  /** Counters of changes, for caches shared between requests (epochs.ts). */
  epochs: Epochs;
  /** Round trip to the database, for /readyz. */
  ping(): Promise<void>;
  close(): Promise<void>;
}

const MIGRATIONS = fileURLToPath(new URL('../../drizzle', import.meta.url));

/**
 * PostgreSQL when a URL is given, else PGlite: persisted under `dataDir/pgdata`, or in memory
 * when `dataDir` is null (tests). The same migrations run on both, at every start.
 */
export async function openDatabase(opts: {
  url?: string;
  dataDir: string | null;
  /** Told when an idle PostgreSQL connection is lost (server restart, admin termination). */
  onConnectionError?: (error: Error) => void;
}): Promise<Database> {
  if (opts.url) {
    const pg = await import('pg');
    const { drizzle } = await import('drizzle-orm/node-postgres');
    const { migrate } = await import('drizzle-orm/node-postgres/migrator');
    const pool = new pg.default.Pool({ connectionString: opts.url, max: 10 });
    // Without a listener a lost idle connection would crash the process; the pool replaces it.
    pool.on('error', (error) => opts.onConnectionError?.(error));
    const db = drizzle(pool, { schema }) as unknown as Db;
    await migrate(drizzle(pool, { schema }), { migrationsFolder: MIGRATIONS });
    return {
      db,
      kind: 'postgres',
      epochs: postgresEpochs(pool),
      ping: async () => void (await pool.query('select 1')),
      close: () => pool.end(),
    };
  }
  const { PGlite } = await import('@electric-sql/pglite');
  const { drizzle } = await import('drizzle-orm/pglite');
  const { migrate } = await import('drizzle-orm/pglite/migrator');
  let dir: string | undefined;
  if (opts.dataDir) {
    dir = join(opts.dataDir, 'pgdata');
    mkdirSync(dir, { recursive: true });
  }
  const client = new PGlite(dir, { parsers: drizzleParsers });
  await client.waitReady;
  const d = drizzle({ client: withClientParsers(client) as unknown as PGlite, schema });
  await migrate(d, { migrationsFolder: MIGRATIONS });
  const epochs = await pgliteEpochs(client);
  return {
    db: d as unknown as Db,
    kind: 'pglite',
    epochs,
    ping: async () => void (await client.query('select 1')),
    close: async () => {
      await epochs.close();
      await client.close();
    },
  };
}

export { schema };
