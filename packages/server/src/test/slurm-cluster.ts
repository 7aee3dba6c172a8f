// The private Slurm cluster that `npm test` starts (scripts/slurm.mjs) as the `*.slurm.test.ts`
// files see it: through ORRERY_TEST_SLURM_* variables, absent when no cluster runs.
import { execFile } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';
import { describe } from 'vitest';
import { freshPostgresDatabase } from './databases.js';

export interface TestCluster {
  /** slurm.conf; the commands find it through SLURM_CONF. */
  conf: string;
  restUrl: string;
  jwtKeyPath: string;
  /** The unprivileged user slurmrestd runs as and REST jobs are submitted for. */
  user: string;
  /** A directory every node sees, writable by any job user. */
  sharedDir: string;
  /**
   * A PostgreSQL server for test servers whose data directory is on the shared one, where the
   * embedded database is refused (ORRERY_TEST_SLURM_DATABASE_URL; npm test starts one).
   */
  databaseUrl?: string;
}

function fromEnv(): TestCluster | null {
  const e = process.env;
  if (!e.ORRERY_TEST_SLURM_CONF || !e.ORRERY_TEST_SLURM_REST || !e.ORRERY_TEST_SLURM_JWT_KEY)
    return null;
  return {
    conf: e.ORRERY_TEST_SLURM_CONF,
    restUrl: e.ORRERY_TEST_SLURM_REST,
    jwtKeyPath: e.ORRERY_TEST_SLURM_JWT_KEY,
    user: e.ORRERY_TEST_SLURM_USER ?? 'orrery-slurm',
    sharedDir: e.ORRERY_TEST_SLURM_SHARED ?? '/tmp',
    databaseUrl: e.ORRERY_TEST_SLURM_DATABASE_URL,
  };
}

export const testCluster = fromEnv();

const NO_CLUSTER =
  'skipped: no test Slurm cluster (npm test starts one; by hand, `node scripts/slurm.mjs start` ' +
  'prints the ORRERY_TEST_SLURM_* variables to export)';

/** `describe` when the cluster runs; otherwise skipped, saying why in the test's name. */
export function describeSlurm(name: string, fn: (c: TestCluster) => void): void {
  if (testCluster) describe(name, () => fn(testCluster));
  else describe.skip(`${name} — ${NO_CLUSTER}`, () => fn({} as TestCluster));
}

const run = promisify(execFile);

/** A Slurm command against the test cluster; its stdout. */
export async function slurmCommand(c: TestCluster, cmd: string, args: string[]): Promise<string> {
  const { stdout } = await run(cmd, args, { env: { ...process.env, SLURM_CONF: c.conf } });
  return stdout;
}

/** Polls until `path` holds a whole first line; returns the file's text. */
export async function waitForLine(path: string, timeoutMs = 20000): Promise<string> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    if (existsSync(path)) {
      const text = readFileSync(path, 'utf8');
      if (text.includes('\n')) return text;
    }
    if (Date.now() > until) throw new Error(`${path}: no line after ${timeoutMs} ms`);
    await sleep(20);
  }
}

/**
 * A fresh PostgreSQL database for a server whose data directory is on the shared one; fails
 * saying how to get one when the cluster came without.
 */
export async function slurmDatabase(c: TestCluster): Promise<{ url: string; drop(): Promise<void> }> {
  if (!c.databaseUrl) {
    throw new Error(
      'ORRERY_TEST_SLURM_DATABASE_URL is not set: a server with its data directory on the shared ' +
        'one needs PostgreSQL (npm test starts one; by hand, the URL of any PostgreSQL server)',
    );
  }
  return freshPostgresDatabase(c.databaseUrl);
}

/**
 * A directory of its own on the cluster's shared one, for a test server on the slurm runtime, and
 * that server's settings: jobs through the commands as the cluster's user.
 */
export function slurmServerEnv(
  c: TestCluster,
  name: string,
  extra: Record<string, string> = {},
): { shared: string; env: Record<string, string> } {
  const shared = mkdtempSync(join(c.sharedDir, `${name}-`));
  chmodSync(shared, 0o755);
  return {
    shared,
    env: {
      ORRERY_RUNTIME: 'slurm',
      ORRERY_SLURM_CONF: c.conf,
      ORRERY_SLURM_USER: c.user,
      ORRERY_SLURM_SHARED_DIR: shared,
      ...extra,
    },
  };
}
