import { execFile, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeEach, describe } from 'vitest';
import type { TestServer, TestUser } from './harness.js';

/**
 * The official Apolo clients (`apolo`, `apolo-flow`), installed from the copy beside the
 * repository (`../shared/tools/apolo-clients`, or ORRERY_APOLO_CLIENTS) by its own install.sh.
 * npm test installs them once and names the launchers' folder in ORRERY_APOLO_BIN; a file run on
 * its own installs them here. Missing clients fail the suite under CI=true and skip it loudly
 * elsewhere (docs/apolo-clients.md).
 */
const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));
export const CLIENTS_DIR = resolve(
  process.env.ORRERY_APOLO_CLIENTS ?? join(ROOT, '..', 'shared', 'tools', 'apolo-clients'),
);

let found: { bin: string } | { missing: string } | undefined;
function clients() {
  if (found) return found;
  const given = process.env.ORRERY_APOLO_BIN;
  if (given && existsSync(join(given, 'apolo'))) return (found = { bin: given });
  const script = join(CLIENTS_DIR, 'install.sh');
  if (!existsSync(script)) return (found = { missing: `${script} not found` });
  const bin = mkdtempSync(join(tmpdir(), 'apolo-bin-'));
  const r = spawnSync('bash', [script, bin], { encoding: 'utf8' });
  if (r.status !== 0) return (found = { missing: `install.sh failed: ${r.stderr || r.stdout}` });
  return (found = { bin });
}

/**
 * `describe` for a file of client tests: skipped, saying why on stderr, when the clients cannot
 * be installed on this machine; a failure under CI, where they must be.
 */
export function describeClients(name: string, body: () => void) {
  const c = clients();
  if ('missing' in c) {
    if (process.env.CI === 'true') throw new Error(`The official Apolo clients: ${c.missing}`);
    process.stderr.write(
      `\n!!! SKIPPED "${name}": the official Apolo clients are not installed (${c.missing}).\n` +
        `!!! Set ORRERY_APOLO_CLIENTS to a copy of shared/tools/apolo-clients to run them.\n\n`,
    );
    describe.skip(name, body);
    return;
  }
  // Each command is a Python process that imports the SDK (a second or two, far more on a loaded
  // machine), and a test runs a group of them: the default 30 s is too short a hang guard.
  describe(name, { timeout: 180_000 }, body);
}

/** Where and how long a client runs, and environment it gets beside its HOME. */
export interface RunOpts {
  cwd?: string;
  timeoutMs?: number;
  env?: Record<string, string>;
}

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * A signed-in `apolo` of a user: a config logged in once, copied into a fresh HOME for every test
 * so that `~/.apolo/logs` holds only that test's runs; a failed test prints them all.
 */
export function apoloOf(s: () => TestServer, who: () => TestUser) {
  const base = mkdtempSync(join(tmpdir(), 'apolo-home-'));
  let template: string | undefined;
  let home = base;
  const env = () => ({
    ...process.env,
    HOME: home,
    APOLO_CONFIG: join(home, '.apolo'),
    // `apolo-flow run` starts its live jobs with the `apolo` beside it.
    PATH: `${dirname(bin('apolo'))}:${process.env.PATH ?? ''}`,
    NO_COLOR: '1',
    COLUMNS: '200',
  });
  const bin = (name: string) => join((clients() as { bin: string }).bin, name);

  const exec = (name: string, args: string[], opts: RunOpts = {}) =>
    new Promise<CliResult>((done) => {
      execFile(
        bin(name),
        args,
        {
          env: { ...env(), ...opts.env },
          cwd: opts.cwd ?? home,
          timeout: opts.timeoutMs ?? 120_000,
        },
        (err, stdout, stderr) => {
          const code = err ? (typeof err.code === 'number' ? err.code : 1) : 0;
          done({ code, stdout, stderr });
        },
      );
    });

  beforeEach(async ({ onTestFailed }) => {
    if (!template) {
      home = mkdtempSync(join(base, 'login-'));
      const r = await exec('apolo', [
        'config',
        'login-with-token',
        who().token,
        `${s().url}/api/v1`,
      ]);
      if (r.code !== 0)
        throw new Error(
          `apolo config login-with-token failed:\n${r.stdout}${r.stderr}${logsOf(home)}`,
        );
      template = join(home, '.apolo');
    }
    home = mkdtempSync(join(base, 'test-'));
    // The configuration, not the login's own logs.
    cpSync(template, join(home, '.apolo'), {
      recursive: true,
      filter: (from) => from !== join(template!, 'logs'),
    });
    const mine = home;
    onTestFailed(() => {
      process.stderr.write(logsOf(mine));
    });
  });
  afterAll(() => rmSync(base, { recursive: true, force: true }));
  /** Runs and requires exit 0; the output otherwise, in the error. */
  const ok = async (name: string, args: string[], opts?: RunOpts) => {
    const r = await exec(name, args, opts);
    if (r.code !== 0)
      throw new Error(`${name} ${args.join(' ')} exited ${r.code}:\n${r.stdout}\n${r.stderr}`);
    return r.stdout;
  };
  /**
   * A command that streams until stopped (`top`, `port-forward`): started, and resolved once its
   * output matches; `stop()` ends it. Fails when it exits before.
   */
  const streaming = (name: string, args: string[], until: RegExp, opts: RunOpts = {}) =>
    new Promise<{ output: () => string; stop: () => void; exited: Promise<number | null> }>(
      (done, fail) => {
        const child: ChildProcess = spawn(bin(name), args, {
          env: { ...env(), ...opts.env },
          cwd: opts.cwd ?? home,
        });
        let out = '';
        const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
        const stop = () => child.exitCode === null && child.kill('SIGINT');
        const timer = setTimeout(() => {
          stop();
          fail(new Error(`${name} ${args.join(' ')} printed no ${until}:\n${out}`));
        }, opts.timeoutMs ?? 60_000);
        const seen = (d: Buffer) => {
          out += d.toString();
          if (until.test(out)) {
            clearTimeout(timer);
            done({ output: () => out, stop, exited });
          }
        };
        child.stdout!.on('data', seen);
        child.stderr!.on('data', seen);
        void exited.then((code) => {
          clearTimeout(timer);
          fail(new Error(`${name} ${args.join(' ')} exited ${code}:\n${out}`));
        });
      },
    );
  return {
    streaming: (args: string[], until: RegExp, opts?: RunOpts) =>
      streaming('apolo', args, until, opts),
    flowStreaming: (args: string[], until: RegExp, opts?: RunOpts) =>
      streaming('apolo-flow', args, until, opts),
    home: () => home,
    run: (args: string[], opts?: RunOpts) => exec('apolo', args, opts),
    ok: (args: string[], opts?: RunOpts) => ok('apolo', args, opts),
    flow: (args: string[], opts?: RunOpts) => exec('apolo-flow', args, opts),
    flowOk: (args: string[], opts?: RunOpts) => ok('apolo-flow', args, opts),
  };
}

/** Every log the clients wrote under a HOME, in full, for a failed test's output. */
export function logsOf(home: string) {
  const dir = join(home, '.apolo', 'logs');
  if (!existsSync(dir)) return `\n(no client logs under ${dir})\n`;
  return readdirSync(dir)
    .sort()
    .map((f) => `\n===== ${join(dir, f)} =====\n${readFileSync(join(dir, f), 'utf8')}`)
    .join('\n');
}
