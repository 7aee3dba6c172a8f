// Only what every command needs is imported up front: `serve` opens the database while the rest of
// the server loads (openServerDatabase), and the CLI commands load only what they use.
import { parseArgs } from 'node:util';
import { mkdirSync } from 'node:fs';
import pino from 'pino';
import type { JWK } from 'jose';
import { ConfigError, loadConfig, type Config } from './config.js';
import { openDatabase, type Db } from './db/client.js';
import { openServerDatabase } from './server-database.js';
import { callControl, claimDataDir, listenControl, serverHolds } from './control.js';
import type { Server } from './server.js';
import {
  CliError,
  parseTokensArgs,
  TOKENS_USAGE,
  type TokensArgs,
} from './modules/tokens/cli-args.js';

const USAGE = `Usage: orrery <command>

  serve                                  start the server (default)
  migrate                                apply database migrations and exit
  token create --email E [--ttl 1h]      print a bearer token for the user with e-mail E
${TOKENS_USAGE}`;

async function serve(config: Config) {
  const started = performance.now();
  let release = () => {};
  if (!config.databaseUrl) {
    mkdirSync(config.dataDir, { recursive: true });
    release = claimDataDir(config.dataDir);
    process.on('exit', () => release());
  }
  // Opened before the rest of the server is imported: PGlite's file reads and WebAssembly
  // compilation overlap the loading (its start itself runs on this thread, after it). The server
  // owns the database from here, and closes it if it fails to start.
  const database = openServerDatabase(config, pino({ level: config.logLevel }));
  database.catch(() => undefined);
  const { createServer } = await import('./server.js');
  const server = await createServer(config, { database });
  const { app } = server;
  await app.listen({ port: config.port, host: config.host });
  const control =
    server.ctx.database.kind === 'pglite'
      ? await listenControl(config.dataDir, (command, args) =>
          controlCommand(server.ctx, command, args),
        )
      : null;
  const ms = Math.round(performance.now() - started);
  app.log.info({ ms, database: server.ctx.database.kind }, 'ready');
  process.stdout.write(`\n  Orrery is ready in ${ms} ms: open ${config.publicUrl}\n\n`);
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    app.log.info({ signal }, 'shutting down');
    control?.close();
    await server.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
}

async function controlCommand(ctx: Server['ctx'], command: string, args: Record<string, unknown>) {
  if (command === 'token') {
    const { issueTokenForEmail } = await import('./auth/issue.js');
    return { token: await issueTokenForEmail(ctx, String(args.email), Number(args.ttlSeconds)) };
  }
  if (command === 'tokens') {
    const { runTokens } = await import('./modules/tokens/cli.js');
    return { out: await runTokens(ctx, args as unknown as TokensArgs) };
  }
  throw new Error(`Unknown control command ${command}`);
}

/**
 * Runs a CLI command on the data: through the control socket of a running server on the embedded
 * database (PGlite admits one process; one still starting is waited for), else on the database
 * opened here.
 */
async function onData<T>(
  config: Config,
  command: string,
  args: object,
  direct: (deps: { db: Db; config: Config; keys: JWK[] }) => Promise<T>,
): Promise<T> {
  if (!config.databaseUrl) {
    const deadline = Date.now() + 60_000;
    for (;;) {
      const viaServer = (await callControl(config.dataDir, command, { ...args })) as T | null;
      if (viaServer) return viaServer;
      if (!serverHolds(config.dataDir)) break;
      if (Date.now() > deadline) {
        throw new Error('the server holding the data directory does not answer');
      }
      await new Promise((r) => setTimeout(r, 200));
    }
  }
  const database = await openDatabase({ url: config.databaseUrl, dataDir: config.dataDir });
  try {
    const { loadSigningKeys } = await import('./auth/keys.js');
    const keys = config.oidc.external ? [] : await loadSigningKeys(database.db);
    return await direct({ db: database.db, config, keys });
  } finally {
    await database.close();
  }
}

async function tokenCreate(config: Config, argv: string[]) {
  const { values } = parseArgs({
    args: argv,
    options: { email: { type: 'string' }, ttl: { type: 'string', default: '1h' } },
  });
  if (!values.email) throw new ConfigError('token create: --email is required');
  const email = values.email;
  const { parseTtl } = await import('./auth/tokens.js');
  const ttlSeconds = parseTtl(values.ttl!);
  const { token } = await onData(config, 'token', { email, ttlSeconds }, async (deps) => {
    const { issueTokenForEmail } = await import('./auth/issue.js');
    return { token: await issueTokenForEmail(deps, email, ttlSeconds) };
  });
  return token;
}

async function main() {
  const [command = 'serve', sub, ...rest] = process.argv.slice(2);
  const config = loadConfig();
  switch (command) {
    case 'serve':
      return serve(config);
    case 'migrate': {
      const database = await openDatabase({ url: config.databaseUrl, dataDir: config.dataDir });
      await database.close();
      process.stdout.write('Migrations applied\n');
      return;
    }
    case 'token':
      if (sub !== 'create') break;
      process.stdout.write(`${await tokenCreate(config, rest)}\n`);
      return;
    case 'tokens': {
      const args = parseTokensArgs(sub, rest);
      const { out } = await onData(config, 'tokens', args, async (deps) => {
        const { runTokens } = await import('./modules/tokens/cli.js');
        return { out: await runTokens(deps, args) };
      });
      process.stdout.write(out);
      return;
    }
    case 'help':
    case '--help':
      process.stdout.write(USAGE);
      return;
  }
  process.stderr.write(USAGE);
  process.exit(2);
}

main().catch((e: Error) => {
  process.stderr.write(
    `${e instanceof ConfigError || e instanceof CliError ? e.message : `orrery: ${e.message}`}\n`,
  );
  process.exit(1);
});
