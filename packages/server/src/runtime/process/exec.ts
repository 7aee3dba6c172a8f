import { spawn } from 'node:child_process';
import { readFile, readlink } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { childSession } from '../child.js';
import type { ExecOptions, ExecSession } from '../driver.js';
import { readNumber } from './exit.js';
import type { JobIdentity } from './identity.js';
import { asJob, SETPRIV } from './launch.js';
import { takesTerm, tree } from './proc.js';
import { asOwnUser } from './unsandboxed.js';

export interface ExecContext {
  sandboxed: boolean;
  /** The job's uid, when it has one of its own. */
  identity?: JobIdentity;
  /** Unsandboxed, the job's own uid (a root server's job): the command drops to it too. */
  ownUid?: number;
  cgroupProcs: string[];
  stdin: boolean;
}

/** `execIn` for the running job in `dir` (its process group), whose uid is `uid`. */
export async function execInDir(
  dir: string,
  uid: number | undefined,
  options: ExecOptions,
  host: { sandboxed: boolean; jobsGid?: number; cgroupProcs: string[] },
): Promise<ExecSession> {
  const pgid = await readNumber(join(dir, 'pgid'));
  return execIn(pgid?.value, options.command, {
    sandboxed: host.sandboxed,
    identity:
      uid !== undefined && host.jobsGid !== undefined ? { uid, gid: host.jobsGid } : undefined,
    ownUid: !host.sandboxed ? uid : undefined,
    cgroupProcs: host.cgroupProcs,
    stdin: options.stdin,
  });
}

/**
 * A command beside the job's, with its environment (read from /proc). Sandboxed: it joins the
 * job's cgroups, enters its mount, PID, IPC, network and UTS namespaces (nsenter, as root or as
 * the owner of the job's user namespace) and drops to the job's uid with no capabilities and
 * no_new_privs. Unsandboxed: in the job's working directory, as the job's own uid when it has one
 * (never as a root server). No terminal: `tty` is ignored.
 */
export async function execIn(
  pgid: number | undefined,
  command: string[],
  c: ExecContext,
): Promise<ExecSession> {
  const target = pgid === undefined ? undefined : await execTarget(pgid);
  if (!target) throw new Error('The job has no process to exec in');
  const environ = await readFile(`/proc/${target.pid}/environ`, 'utf8');
  const env = Object.fromEntries(
    environ
      .split('\0')
      .filter(Boolean)
      .map((kv) => [kv.slice(0, kv.indexOf('=')), kv.slice(kv.indexOf('=') + 1)]),
  );
  const [file, args, cwd] = c.sandboxed
    ? ['/bin/sh', enterArgs(target.pid, command, c), undefined]
    : c.ownUid !== undefined
      ? [SETPRIV, [...asOwnUser(c.ownUid).slice(1), ...command], await jobCwd(target.pid)]
      : [command[0], command.slice(1), await jobCwd(target.pid)];
  // The session's reader adds its own listeners; until then a failing pipe is no crash.
  return childSession(
    spawn(file, args, {
      cwd,
      env,
      stdio: [c.stdin ? 'pipe' : 'ignore', 'pipe', 'pipe'],
    }),
  );
}

function enterArgs(pid: number, command: string[], c: ExecContext): string[] {
  const enter = c.identity ? [] : ['--user', '--preserve-credentials'];
  const drop = c.identity
    ? asJob(c.identity, ['--no-new-privs'])
    : [SETPRIV, '--bounding-set=-all', '--inh-caps=-all', '--no-new-privs', '--'];
  return [
    '-c',
    'for f in $0; do echo $$ > "$f"; done; exec "$@"',
    c.cgroupProcs.join(' '),
    'nsenter',
    `--target=${pid}`,
    ...enter,
    ...['--mount', '--pid', '--ipc', '--net', '--uts', '--wd', '--'],
    ...drop,
    ...command,
  ];
}

/**
 * The job's command: its first process that takes SIGTERM, which is past the wrapper and, when
 * sandboxed, inside the sandbox once bwrap has set it up. One that ignores SIGTERM itself is
 * found by waiting a second for the first; the deepest process then.
 */
async function execTarget(pgid: number) {
  let procs = await tree(pgid);
  for (let i = 0; i < 50; i++) {
    for (const p of procs) if (await takesTerm(p.pid)) return p;
    await sleep(20);
    procs = await tree(pgid);
  }
  return procs.at(-1);
}

const jobCwd = (pid: number) => readlink(`/proc/${pid}/cwd`);
