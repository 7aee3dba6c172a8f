import { mkdirSync } from 'node:fs';
import type { Logger } from 'pino';
import type { Config } from './config.js';
import { openDatabase, type Database, type PgliteAssets } from './db/client.js';

export interface ServerDatabaseOptions {
  /** A PGlite in memory instead of under the data directory (tests). */
  inMemory?: boolean;
  pgliteSeed?: Blob;
  pgliteAssets?: PgliteAssets;
}

/**
 * The server's database, migrated: PostgreSQL at the configured URL, else PGlite under the data
 * directory. Apart from server.ts (and all it imports) so that a start can begin opening it
 * before the rest of the server's modules load (main.ts).
 */
export function openServerDatabase(
  config: Config,
  log: Logger,
  opts: ServerDatabaseOptions = {},
): Promise<Database> {
  if (!opts.inMemory) mkdirSync(config.dataDir, { recursive: true });
  return openDatabase({
    url: config.databaseUrl,
    dataDir: opts.inMemory ? null : config.dataDir,
    seed: opts.pgliteSeed,
    pgliteAssets: opts.pgliteAssets,
    onConnectionError: (error) => log.warn({ err: error }, 'database connection lost'),
    onLoopTaken: (loop) => log.info({ loop }, 'leading a background loop'),
  });
}
