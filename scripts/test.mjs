// `npm test`: install what is missing (npm packages; Debian's chromium and postgresql when root),
// then lint, typecheck, unit and API tests on PGlite, the tests that reach the database again on
// PostgreSQL, the Slurm runtime's tests on a private cluster, and the
// browser tests against the production build.
import { closeSync, existsSync, mkdtempSync, openSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import {
  ROOT,
  ensureApt,
  ensureAppRuntimes,
  ensureBuilt,
  ensureDependencies,
  log,
} from './lib.mjs';
import { embeddedPackages } from './packages.mjs';
import { postgresBin, startPostgres } from './postgres.mjs';
import { slurmAvailable, startSlurm } from './slurm.mjs';
import { databaseTests, runtimeTests } from './database-tests.mjs';
import { reportLeftoverJobs } from './leftovers.mjs';
import { passLines, passTable, readReport } from './test-report.mjs';

const CHROMIUM = '/usr/bin/chromium';
ensureDependencies();
ensureAppRuntimes();
const apt = ensureApt([
  ['chromium', CHROMIUM],
  ['postgresql', () => !!postgresBin()],
  // The embedded defaults' own packages (sandbox, network, firewall, registry, app runtimes),
  // the same list `npm start` installs.
  ...embeddedPackages(),
  // The real Docker client against /v2/: dockerd on a private socket, an image of busybox.
  ['docker.io', '/usr/sbin/dockerd'],
  ['busybox-static', '/bin/busybox'],
  // A Slurm job's network on its node (slurm/script.ts): pasta forwards its HTTP port.
  ['passt', '/usr/bin/pasta'],
  // A real S3 client against the embedded S3 endpoint (modules/s3).
  ['awscli', '/usr/bin/aws'],
  // PyTorch DDP across a distributed job's workers (runtime/process/gang.test.ts): 161 packages,
  // 91 s to install here (under load, --no-install-recommends).
  ['python3-torch', '/usr/lib/python3/dist-packages/torch/__init__.py'],
  // MPI across a distributed job's workers through Orrery's launch agent (gang.test.ts).
  ['openmpi-bin', '/usr/bin/mpirun'],
  ['python3-mpi4py', '/usr/lib/python3/dist-packages/mpi4py/__init__.py'],
  // The Slurm runtime's tests: a private two-node cluster on loopback (scripts/slurm.mjs).
  ['slurm-wlm', '/usr/bin/sinfo'],
  ['slurmctld', '/usr/sbin/slurmctld'],
  ['slurmd', '/usr/sbin/slurmd'],
  ['munge', '/usr/sbin/munged'],
  ['slurmrestd', '/usr/sbin/slurmrestd'],
  ['slurm-client', '/usr/bin/sbatch'],
  ['slurm-wlm-jwt-plugin', '/usr/lib/x86_64-linux-gnu/slurm-wlm/auth_jwt.so'],
]);
const haveChromium = apt.chromium;
ensureBuilt();
const apolo = installApoloClients();

const reports = mkdtempSync(join(tmpdir(), 'orrery-test-'));
const totals = { passed: 0, failed: 0, skipped: 0 };
/** Every pass run so far, for the table at the end. */
const passes = [];
function record(name, started, ok, report = null, ended = performance.now()) {
  const pass = { name, started, ended, ms: ended - started, ok, report };
  passes.push(pass);
  process.stdout.write(`\n${passLines(name, pass.ms, report).join('\n')}\n`);
}

/**
 * Passes that are commands (lint, typecheck), side by side: each is one process on one core, so
 * together they take the time of the longer. A failure stops npm test once both have ended.
 */
async function steps(list) {
  const results = await Promise.all(
    list.map(async ([name, commands]) => {
      log(name);
      const started = performance.now();
      for (const [cmd, args] of commands) {
        const [code, signal] = await once(
          spawn(cmd, args, { stdio: 'inherit', cwd: ROOT }),
          'close',
        );
        if (code !== 0) {
          process.stderr.write(`\n✗ ${cmd} ${args.join(' ')} failed (exit ${code ?? signal})\n`);
          return { name, started, ended: performance.now(), code: code ?? 1 };
        }
      }
      return { name, started, ended: performance.now(), code: 0 };
    }),
  );
  for (const r of results) record(r.name, r.started, r.code === 0, null, r.ended);
  const failed = results.find((r) => r.code !== 0);
  if (failed) finish(failed.code);
}

await steps([
  [
    'Lint',
    [
      ['npx', ['eslint', '.', '--max-warnings', '0']],
      ['npx', ['prettier', '--check', '.', '--log-level', 'warn']],
    ],
  ],
  ['Typecheck', [['npm', ['run', 'typecheck', '--silent']]]],
]);

/**
 * One vitest pass; resolves to its exit status. With `logTo` its output goes to that file and is
 * printed when the pass ends, for a pass that runs beside another (whose output is live).
 */
async function vitest(name, args, env = {}, logTo = null) {
  log(logTo ? `${name} (beside the pass above; its output when it ends)` : name);
  const started = performance.now();
  const out = join(reports, `${name.replace(/\W+/g, '-')}.json`);
  const fd = logTo ? openSync(logTo, 'w') : null;
  const child = spawn(
    'npx',
    ['vitest', 'run', ...args, '--reporter=default', '--reporter=json', `--outputFile.json=${out}`],
    {
      stdio: fd === null ? 'inherit' : ['ignore', fd, fd],
      cwd: ROOT,
      env: { ...process.env, ...env },
    },
  );
  const [status] = await once(child, 'close');
  if (fd !== null) {
    closeSync(fd);
    log(name);
    process.stdout.write(readFileSync(logTo));
  }
  const report = existsSync(out) ? readReport(out, ROOT) : null;
  if (report) {
    totals.passed += report.passed;
    totals.failed += report.failed;
    totals.skipped += report.skipped;
  }
  record(name, started, status === 0, report);
  return status ?? 1;
}
/**
 * The official Apolo clients (`apolo`, `apolo-flow`) for the compatibility suite
 * (packages/server/src/clients, docs/apolo-clients.md), from the copy beside the repository or
 * ORRERY_APOLO_CLIENTS; as root install.sh also installs their Debian packages. Without them the
 * suite skips saying so, except under CI, where it fails.
 */
function installApoloClients() {
  const dir =
    process.env.ORRERY_APOLO_CLIENTS ?? join(ROOT, '..', 'shared', 'tools', 'apolo-clients');
  const script = join(dir, 'install.sh');
  log('Official Apolo clients');
  if (!existsSync(script)) {
    process.stdout.write(`! ${script} not found: the Apolo clients' compatibility tests skip\n`);
    return { ORRERY_APOLO_CLIENTS: dir };
  }
  const bin = mkdtempSync(join(tmpdir(), 'apolo-bin-'));
  const r = spawnSync('bash', [script, bin], { stdio: 'inherit' });
  if (r.status !== 0) {
    process.stdout.write(`! ${script} failed: the Apolo clients' compatibility tests skip\n`);
    return { ORRERY_APOLO_CLIENTS: dir };
  }
  return { ORRERY_APOLO_CLIENTS: dir, ORRERY_APOLO_BIN: bin };
}

function finish(code) {
  process.stdout.write(`\n${passTable(passes).join('\n')}\n`);
  process.stdout.write(
    `\n${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped\n`,
  );
  process.exit(code);
}

// vitest's default on two cores is one worker, which left a third of the CPU idle; the runtimes'
// tests share host-wide state (nft table, cgroups, dockerd), so they run apart, one file at a
// time, each in a fresh process (ORRERY_TEST_PASS=runtime in vitest.config.ts).
const pgliteCode = await vitest('Unit and API tests (PGlite)', ['--maxWorkers=2'], {
  ORRERY_TEST_RUNTIME_APART: '1',
});
// Between passes, never during one: a pass beside another may still have jobs of its own.
reportLeftoverJobs('Unit and API tests (PGlite)');
if (pgliteCode) finish(1);

// The Slurm pass runs beside the runtime pass: that one runs a file at a time and the Slurm
// tests mostly wait on the cluster, so together they keep two cores busy where each alone left
// one idle. They share no host state: the Slurm jobs run as the cluster's service user under
// nft table `orrery-slurm`, the runtime pass's jobs under uids and the table of their own
// (docs/testing.md).
const [runtimeCode, slurmCode] = await Promise.all([
  vitest('Runtime tests (PGlite)', ['--project', 'server', ...runtimeTests(ROOT)], {
    ...apolo,
    ORRERY_TEST_PASS: 'runtime',
  }),
  slurmPass(),
]);
reportLeftoverJobs('Runtime tests and Slurm runtime tests');
if (runtimeCode || slurmCode) finish(1);

async function slurmPass() {
  if (!slurmAvailable()) {
    process.stdout.write('! Slurm is not installed (or not root): Slurm runtime tests skipped\n');
    return 0;
  }
  const slurm = await startSlurm();
  // A server whose data directory is on the shared one needs PostgreSQL: the embedded database
  // is refused there (docs/operations.md, On Slurm).
  const slurmPg = startPostgres();
  try {
    const up = `Slurm test cluster ${slurm.cluster} up in ${Math.round(slurm.startMs)} ms\n`;
    const logTo = join(reports, 'slurm.log');
    // The official CLI's run on Slurm (clients/apolo-cli.slurm.test.ts) needs the clients too.
    const code = await vitest(
      'Slurm runtime tests',
      ['--project', 'slurm'],
      {
        ...slurm.testEnv,
        ...apolo,
        ...(slurmPg ? { ORRERY_TEST_SLURM_DATABASE_URL: slurmPg.url } : {}),
      },
      logTo,
    );
    process.stdout.write(up);
    return code;
  } finally {
    await slurm.stop();
    slurmPg?.stop();
  }
}

const pg = startPostgres();
if (pg) {
  let code = 1;
  try {
    const files = ['--maxWorkers=2', ...databaseTests(ROOT)];
    const projects = ['--project', 'server', '--project', 'server-isolated'];
    code = await vitest('API tests (PostgreSQL)', [...projects, ...files], {
      TEST_DATABASE_URL: pg.url,
      // This pass checks the routes on PostgreSQL; what the PGlite pass measured (memory under
      // slow readers, the fuzz's many runs) runs here at a size for that purpose: payloads
      // still twice the memory bound, a fifth of the fuzz runs on a seed of their own.
      ORRERY_TEST_SLOW_READER_MB: '300',
      FUZZ_RUNS: '5',
      FUZZ_SEED: '20261206',
    });
  } finally {
    pg.stop();
  }
  reportLeftoverJobs('API tests (PostgreSQL)');
  if (code) finish(code);
} else {
  process.stdout.write('! PostgreSQL is not installed: API tests ran on PGlite only\n');
}

if (haveChromium) {
  const code = await vitest('Browser tests (Chromium, production build)', [
    '--config',
    'e2e/vitest.config.ts',
  ]);
  reportLeftoverJobs('Browser tests');
  if (code) finish(1);
} else {
  process.stdout.write('! Chromium is not installed: browser tests skipped\n');
}
finish(totals.failed ? 1 : 0);
