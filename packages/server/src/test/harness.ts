import type { BuildOptions } from '../app.js';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig, type Config } from '../config.js';
import { createServer, type Server } from '../server.js';
import { insertUser } from '../modules/users/store.js';
import { hashPassword } from '../auth/passwords.js';
import { issueTokenForEmail } from '../auth/issue.js';
import { users } from '../db/schema.js';
import { freePort } from '../net/ports.js';
import { freshPostgresDatabase, migratedPgliteSeed, pgliteAssets } from './databases.js';
import { stopJobsUnder } from '../../../../scripts/leftovers.mjs';
import { eq } from 'drizzle-orm';

/**
 * A real server for API tests: PGlite in memory, or — when TEST_DATABASE_URL points at a
 * PostgreSQL server — a fresh database on it, dropped afterwards. Same suite, both engines.
 */
export interface TestServer extends Server {
  config: Config;
  /** Base URL when started with `listen: true`. */
  url: string;
  user(
    opts?: Partial<{
      username: string;
      email: string;
      name: string;
      password: string;
      verified: boolean;
      terms: boolean;
      systemRole: string;
    }>,
  ): Promise<TestUser>;
  stop(): Promise<void>;
  /** Stops the server but keeps its data directory and database, for `restartOf`. */
  halt(): Promise<void>;
  /** What a restarted server needs to find the same state. */
  state: { dataDir: string; databaseUrl?: string; drop?: () => Promise<void> };
}
export interface TestUser {
  id: string;
  username: string;
  email: string;
  password: string;
  token: string;
  headers: { authorization: string };
}

export const engine = process.env.TEST_DATABASE_URL ? 'postgres' : 'pglite';

/**
 * Options for a server whose test writes jobs into the table itself (jobs no runtime runs): its
 * jobs loop comes once an hour, so it never ends them as lost, nor charges them, under the test.
 */
export const QUIET_JOBS = { jobs: { tickMs: 3_600_000 } };

export async function startTestServer(
  env: Record<string, string> = {},
  opts: TestServerOptions = {},
): Promise<TestServer> {
  // The port is known before the server starts (its public URL names it) and bound only once it
  // has: another process may take it in between. Then the server starts again on another port.
  for (let attempt = 1; ; attempt++) {
    try {
      return await startOnce(env, opts);
    } catch (e) {
      if (!opts.listen || attempt >= 5 || (e as NodeJS.ErrnoException).code !== 'EADDRINUSE')
        throw e;
    }
  }
}

interface TestServerOptions {
  listen?: boolean;
  jobs?: BuildOptions['jobs'];
  apps?: BuildOptions['apps'];
  billing?: BuildOptions['billing'];
  assistant?: BuildOptions['assistant'];
  disks?: BuildOptions['disks'];
  /** A logger instead of none (tests of what is logged). */
  logger?: BuildOptions['logger'];
  /** Keep the database on disk (PGlite) so that a restart finds it. */
  persistent?: boolean;
  /** Start again on the state of a halted server (a restart). */
  restartOf?: TestServer['state'];
}

async function startOnce(
  env: Record<string, string>,
  opts: TestServerOptions,
): Promise<TestServer> {
  const dataDir = opts.restartOf?.dataDir ?? mkdtempSync(join(tmpdir(), 'orrery-test-'));
  const pgdb = opts.restartOf
    ? opts.restartOf.databaseUrl
      ? { url: opts.restartOf.databaseUrl, drop: opts.restartOf.drop! }
      : null
    : process.env.TEST_DATABASE_URL
      ? await freshPostgresDatabase(process.env.TEST_DATABASE_URL)
      : null;
  // A restart needs a database that outlives the process: PGlite on disk instead of in memory.
  const persistent = !!opts.restartOf || !!opts.persistent;
  // A port the system just handed out: a random pick collided with jobs' and other servers' ports.
  const port = opts.listen ? await freePort() : 8080;
  const config = loadConfig({
    ORRERY_DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    PORT: String(port),
    ORRERY_ADMIN_PASSWORD: 'admin-password-1',
    ...(pgdb ? { DATABASE_URL: pgdb.url } : {}),
    ...env,
  });
  const server = await createServer(config, {
    logger: opts.logger ?? false,
    webDist: null,
    inMemory: !pgdb && !persistent,
    pgliteSeed: !pgdb && !persistent ? await migratedPgliteSeed() : undefined,
    pgliteAssets: pgdb ? undefined : await pgliteAssets(),
    validateResponses: true,
    jobs: opts.jobs,
    apps: opts.apps,
    billing: opts.billing,
    assistant: opts.assistant,
    disks: opts.disks,
  });
  if (opts.listen) {
    try {
      await server.app.listen({ port, host: '127.0.0.1' });
    } catch (e) {
      await server.close(0);
      // What this try made goes; a restart's state stays with the server it restarts.
      if (!opts.restartOf) {
        await pgdb?.drop();
        rmSync(dataDir, { recursive: true, force: true });
      }
      throw e;
    }
  }
  let n = 0;
  const self: TestServer = {
    ...server,
    config,
    url: config.publicUrl,
    async user(o = {}) {
      n += 1;
      const username = o.username ?? `user${n}-${randomUUID().slice(0, 6)}`;
      const email = o.email ?? `${username}@example.test`;
      const password = o.password ?? 'correct horse battery';
      const row = await insertUser(server.ctx.db, {
        username,
        email,
        name: o.name ?? `User ${n}`,
        emailVerified: o.verified ?? true,
        passwordHash: await hashPassword(password),
        termsAcceptedAt: o.terms === false ? null : new Date(),
        systemRole: o.systemRole ?? null,
      });
      const token = await issueTokenForEmail(server.ctx, email, 3600);
      return {
        id: row.id,
        username,
        email,
        password,
        token,
        headers: { authorization: `Bearer ${token}` },
      };
    },
    state: { dataDir, databaseUrl: pgdb?.url, drop: pgdb?.drop },
    async halt() {
      await server.close(500);
    },
    async stop() {
      await server.close(500);
      // Jobs outlive their server by design; a test server's must not outlive the test.
      stopJobsUnder(`${dataDir}/`);
      await pgdb?.drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
  return self;
}

/** Marks a user's e-mail as verified (tests of flows that need it). */
export async function verifyEmail(s: TestServer, userId: string) {
  await s.ctx.db.update(users).set({ emailVerified: true }).where(eq(users.id, userId));
}

/**
 * A second server on the database of `primary` (PostgreSQL only), as a second replica behind a
 * load balancer: its own data directory, the same database, which `primary` drops when it stops.
 */
export function startReplica(
  primary: TestServer,
  opts: { jobs?: BuildOptions['jobs'] } = {},
): Promise<TestServer> {
  if (!primary.state.databaseUrl) throw new Error('replicas share a PostgreSQL database');
  return startTestServer(
    {},
    {
      ...opts,
      restartOf: {
        dataDir: mkdtempSync(join(tmpdir(), 'orrery-replica-')),
        databaseUrl: primary.state.databaseUrl,
        drop: async () => undefined,
      },
    },
  );
}
