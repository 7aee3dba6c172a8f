// The private Slurm cluster that `npm test` starts (scripts/slurm.mjs) as the `*.slurm.test.ts`
// files see it: through ORRERY_TEST_SLURM_* variables, absent when no cluster runs.
import { execFile } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';
import { describe } from 'vitest';
import type { JobSpec } from '../runtime/driver.js';
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

/** The cluster's two ways in, for driver tests run once per API (`describe.each`). */
export const slurmApis = testCluster
  ? [{ api: 'commands' as const }, { api: 'rest' as const }]
  : [];

/** A plain command as the driver's job: no image, mounts or terminal, one CPU, 100 MiB. */
export const commandSpec = (id: string, command: string, extra: Partial<JobSpec> = {}) =>
  ({
    id,
    image: 'none',
    command,
    env: {},
    mounts: [],
    limits: { cpu: 1, memory: 100 * 2 ** 20, shm: false },
    tty: false,
    privileged: false,
    ...extra,
  }) satisfies JobSpec;

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

/**
 * A job of the test cluster's own (root's, not the service user's, so not Orrery's whatever its
 * `name`) holding one CPU, 300 MB and one GPU of partition `gpu` for a minute: what another
 * user's job takes off what Orrery sees. Its Slurm job id, for `scancel`.
 */
export async function holdOneGpu(c: TestCluster, name?: string): Promise<string> {
  const args = ['--parsable', ...(name ? [`--job-name=${name}`] : [])];
  return (
    await slurmCommand(c, 'sbatch', [
      ...args,
      '-p',
      'gpu',
      '--gres=gpu:1',
      '--mem=300M',
      '-o',
      '/dev/null',
      '--wrap',
      'sleep 60',
    ])
  ).trim();
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

const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

/**
 * A set-up block of docs/operations.md, as written, for sh: the `sh` block whose first line is
 * `# Slurm set-up: <name>`, with the variables it sets at its top (`name=value  # what`) set to
 * `values` instead. Fails when the block or one of the variables is gone from the docs.
 */
export function setupBlock(name: string, values: Record<string, string>): string {
  const doc = readFileSync(new URL('../../../../docs/operations.md', import.meta.url), 'utf8');
  const blocks = [...doc.matchAll(/```sh\n((?:.*\n)*?)\s*```/g)].map((m) => m[1]);
  const block = blocks.find((b) => b.trim().startsWith(`# Slurm set-up: ${name}`));
  if (!block) throw new Error(`docs/operations.md has no block "# Slurm set-up: ${name}"`);
  const set = new Set<string>();
  const script = block
    .split('\n')
    .map((line) => {
      const m = /^\s*(\w+)=\S+(\s+#.*)?$/.exec(line);
      if (!m || !(m[1] in values)) return line;
      set.add(m[1]);
      return `${m[1]}=${quote(values[m[1]])}`;
    })
    .join('\n');
  const missing = Object.keys(values).filter((k) => !set.has(k));
  if (missing.length)
    throw new Error(`"${name}" in docs/operations.md sets no ${missing.join(', ')}`);
  return script;
}

/**
 * What slurmd logged just before it launched batch job `id`: an error there when it had to load
 * the job user's login environment (which a nologin user without a home cannot give).
 */
export function beforeLaunch(c: TestCluster, id: number): string {
  const conf = readFileSync(c.conf, 'utf8');
  const pattern = /^SlurmdLogFile=(\S+)/m.exec(conf)?.[1];
  const nodes = [...conf.matchAll(/^NodeName=(\S+)/gm)].map((m) => m[1]);
  for (const node of nodes) {
    const lines = readFileSync(pattern!.replace('%n', node), 'utf8').split('\n');
    const at = lines.findIndex((l) => l.includes(`Launching batch job ${id} `));
    if (at >= 0) return lines.slice(Math.max(0, at - 2), at).join('\n');
  }
  throw new Error(`no node launched batch job ${id}`);
}

/**
 * A fresh PostgreSQL database for a server whose data directory is on the shared one; fails
 * saying how to get one when the cluster came without.
 */
export async function slurmDatabase(
  c: TestCluster,
): Promise<{ url: string; drop(): Promise<void> }> {
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
