// Shared by the npm scripts: only Node built-ins, because they run before dependencies exist.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { aptPlan } from './packages.mjs';

export const ROOT = fileURLToPath(new URL('..', import.meta.url));
export const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;

export function log(msg) {
  process.stdout.write(`\x1b[36m▸ ${msg}\x1b[0m\n`);
}

/** Runs a command with inherited output; exits the script on failure. */
export function run(cmd, args, opts = {}) {
  const r = spawnSync(cmd, args, { stdio: 'inherit', cwd: ROOT, ...opts });
  if (r.status !== 0) {
    // Output kept back (a quiet step) is shown when the step fails.
    for (const out of [r.stdout, r.stderr]) if (out?.length) process.stderr.write(out);
    process.stderr.write(`\n✗ ${cmd} ${args.join(' ')} failed (exit ${r.status ?? r.signal})\n`);
    process.exit(r.status ?? 1);
  }
}

export function start(cmd, args, opts = {}) {
  return spawn(cmd, args, { stdio: 'inherit', cwd: ROOT, ...opts });
}

function newest(path) {
  if (!existsSync(path)) return 0;
  const s = statSync(path);
  if (!s.isDirectory()) return s.mtimeMs;
  let max = s.mtimeMs;
  for (const e of readdirSync(path)) {
    if (e === 'node_modules' || e === 'dist') continue;
    max = Math.max(max, newest(join(path, e)));
  }
  return max;
}

/** npm install when node_modules is missing or older than the lock file. */
export function ensureDependencies() {
  const marker = join(ROOT, 'node_modules', '.package-lock.json');
  if (
    existsSync(marker) &&
    statSync(marker).mtimeMs >= statSync(join(ROOT, 'package-lock.json')).mtimeMs
  )
    return;
  log('Installing dependencies (npm ci)');
  run('npm', ['ci', '--no-audit', '--no-fund']);
}

/**
 * llama.cpp for the llm-inference app, apart from the workspace: node-llama-cpp with only its
 * Linux x64 CPU binary (85 MB), not its 725 MB of optional GPU builds. `npm install` with
 * `--no-save` installs what the lock names without writing it (`npm ci` refuses a lock that omits
 * the optional packages of other platforms).
 */
export function ensureAppRuntimes() {
  const llm = join(ROOT, 'packages/server/src/modules/apps/templates/llm-inference/runtime');
  if (existsSync(join(llm, 'node_modules/node-llama-cpp'))) return;
  log('Installing node-llama-cpp for the llm-inference app');
  run(
    'npm',
    ['install', '--omit=optional', '--ignore-scripts', '--no-save', '--no-audit', '--no-fund'],
    { cwd: llm },
  );
}

/** Builds contract, server and console when their sources changed since the last build. */
export function ensureBuilt({ force = false } = {}) {
  const steps = [
    {
      name: 'contract',
      src: ['packages/contract/src'],
      out: 'packages/contract/dist/index.js',
      cmd: ['npx', ['tsc', '-b', 'packages/contract']],
    },
    {
      name: 'server',
      src: ['packages/server/src', 'packages/contract/src'],
      out: 'packages/server/dist/main.js',
      cmd: ['npx', ['tsc', '-b', 'packages/server']],
    },
    {
      name: 'console',
      src: [
        'packages/web/src',
        'packages/web/index.html',
        'packages/web/vite.config.ts',
        'packages/contract/src',
      ],
      out: 'packages/web/dist/index.html',
      cmd: ['npx', ['vite', 'build', '--logLevel', 'warn'], { cwd: join(ROOT, 'packages/web') }],
    },
  ];
  for (const s of steps) {
    const built = newest(join(ROOT, s.out));
    if (!force && built > 0 && s.src.every((p) => newest(join(ROOT, p)) <= built)) continue;
    log(`Building ${s.name}`);
    run(s.cmd[0], s.cmd[1], s.cmd[2]);
    // tsc -b leaves outputs it did not need to change untouched: mark this one built, or every
    // later start would build again.
    const now = new Date();
    utimesSync(join(ROOT, s.out), now, now);
  }
}

/**
 * Installs the Debian packages whose probe (a file, or a function) says they are absent, as root,
 * in one apt-get run; not root, installs nothing and says once what to run. `quiet` (npm start)
 * shows one line per step and apt-get's own output only when it fails.
 * Returns which probes exist afterwards.
 */
/**
 * Debian's postgresql creates and starts a database cluster of the host's own on install; Orrery
 * only needs its programs (the PostgreSQL app and the tests start their own servers), so unless
 * the administrator has said otherwise, none is created.
 */
function keepPostgresClusterless() {
  const conf = '/etc/postgresql-common/createcluster.conf';
  if (existsSync(conf)) return;
  mkdirSync(dirname(conf), { recursive: true });
  writeFileSync(conf, 'create_main_cluster = false\n');
}

export function ensureApt(wanted, { quiet = false } = {}) {
  const has = (probe) => (typeof probe === 'function' ? probe() : existsSync(probe));
  const plan = aptPlan(wanted, { root: isRoot });
  if (plan.install.length) {
    // A configuration file already there (keepPostgresClusterless's) is kept, never asked about.
    const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive', UCF_FORCE_CONFFOLD: '1' };
    const q = quiet ? '-qq' : '-q';
    const step = (msg, args) => {
      const t0 = Date.now();
      if (quiet) process.stdout.write(`\x1b[36m▸ ${msg}…\x1b[0m`);
      run('apt-get', args, quiet ? { env, stdio: ['ignore', 'pipe', 'pipe'] } : { env });
      const took = Math.round((Date.now() - t0) / 1000);
      // Said in both modes: on a machine without the packages this is the install's share of the run.
      if (quiet) process.stdout.write(` done in ${took} s\n`);
      else log(`${msg}: ${took} s`);
    };
    if (!quiet) log(`Installing ${plan.install.join(' ')} from Debian`);
    if (plan.install.includes('postgresql')) keepPostgresClusterless();
    step('Debian package lists (apt-get update)', ['update', q]);
    step(`Installing ${plan.install.join(' ')} (apt-get install)`, [
      'install',
      '-y',
      q,
      '--no-install-recommends',
      '-o',
      'Dpkg::Options::=--force-confold',
      ...plan.install,
    ]);
  } else if (plan.notice && quiet) {
    process.stdout.write(`! ${plan.notice}\n`);
  }
  const present = Object.fromEntries(wanted.map(([pkg, probe]) => [pkg, has(probe)]));
  if (!quiet) {
    for (const [pkg] of wanted) {
      if (!present[pkg])
        process.stdout.write(`! ${pkg} is missing: install it (apt-get) to run its tests\n`);
    }
  }
  return present;
}
