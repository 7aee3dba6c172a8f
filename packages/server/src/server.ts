import { join } from 'node:path';
import pino from 'pino';
import type { Config } from './config.js';
import type { Database } from './db/client.js';
import { openServerDatabase, type ServerDatabaseOptions } from './server-database.js';
import { loadSigningKeys, publicJwks } from './auth/keys.js';
import { createTokenVerifier } from './auth/verify.js';
import { withProjectTokens } from './modules/tokens/verify.js';
import { createMailer } from './mail/mailer.js';
import { bootstrapCluster } from './modules/clusters/bootstrap.js';
import { clusterCatalog } from './modules/clusters/store.js';
import { bootstrapAdmin } from './modules/users/bootstrap.js';
import { buildApp, type App, type BuildOptions } from './app.js';
import type { AppContext } from './context.js';

/** How long a shutdown waits for in-flight requests. */
const DRAIN_MS = 10_000;

export interface Server {
  app: App;
  ctx: AppContext;
  /** Drains in-flight requests (cutting those still open after the deadline), then closes the database. */
  close(drainMs?: number): Promise<void>;
}

/**
 * Everything from configuration to a ready app: database and migrations, first-start data
 * (local cluster, system admin), keys, the token verifier and the mailer.
 */
export async function createServer(
  config: Config,
  opts: BuildOptions &
    ServerDatabaseOptions & {
      /**
       * The database, already being opened by openServerDatabase (main.ts opens it while this
       * module loads); this server owns it from here and closes it with itself or on a failure.
       */
      database?: Promise<Database>;
    } = {},
): Promise<Server> {
  const log = pino({ level: config.logLevel });
  const database = await (opts.database ?? openServerDatabase(config, log, opts));
  try {
    if (config.runtime.kind === 'slurm') {
      // A cluster runtime describes itself: its partitions are the node pools of a first start.
      const { slurmFirstPools } = await import('./runtime/slurm/capacity.js');
      const { slurmClient } = await import('./runtime/slurm/connect.js');
      const { requireSlurmOptions } = await import('./runtime/slurm/options.js');
      await bootstrapCluster(
        database.db,
        config.dataDir,
        () => slurmFirstPools(slurmClient(requireSlurmOptions(config.runtime.slurm))),
        'Slurm cluster',
      );
    } else {
      await bootstrapCluster(
        database.db,
        config.dataDir,
        undefined,
        undefined,
        config.runtime.gpus,
      );
    }
    const admin = await bootstrapAdmin(database.db, config.adminEmail, config.adminPassword);
    if (admin.generatedPassword) {
      // Printed once, on the console of the first start; never logged.
      process.stdout.write(
        `\n  System administrator created: ${config.adminEmail} (username ${admin.username})\n` +
          `  Password: ${admin.generatedPassword}\n  It is shown only this once.\n\n`,
      );
    }
    const keys = config.oidc.external ? [] : await loadSigningKeys(database.db);
    const verifier = withProjectTokens(
      database.db,
      createTokenVerifier({
        issuer: config.oidc.issuer,
        audience: config.oidc.audience,
        jwks: config.oidc.external ? 'discover' : publicJwks(keys),
      }),
    );
    const mailer = createMailer({
      smtpUrl: config.smtpUrl,
      from: config.mailFrom,
      outboxDir: join(config.dataDir, 'outbox'),
      log,
    });
    const ctx: AppContext = {
      config,
      database,
      db: database.db,
      keys,
      verifier,
      mailer,
      clusterCatalog: clusterCatalog(database.db),
    };
    const app = await buildApp(ctx, opts);
    let closed = false;
    return {
      app,
      ctx,
      close: async (drainMs = DRAIN_MS) => {
        if (closed) return;
        closed = true;
        // A client that stops reading keeps its response in flight forever; after the deadline
        // its connection is cut so that shutdown always ends.
        const cut = setTimeout(() => app.server.closeAllConnections(), drainMs);
        try {
          await app.close();
        } finally {
          clearTimeout(cut);
        }
        await database.close();
      },
    };
  } catch (e) {
    await database.close();
    throw e;
  }
}
