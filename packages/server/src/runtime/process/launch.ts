import { chmod, chown, mkdir, open, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import type { JobSpec } from '../driver.js';
import { shellCommand } from '../common.js';
import type { JobIdentity } from './identity.js';
import type { JobRecord } from './record.js';
import { writeEtc } from './identity.js';
import { grantTraverse, shareVolume } from './volumes.js';
import { BWRAP, bwrapArgs } from './sandbox.js';
import { sandboxPtys } from './ptys.js';
import { startNetwork } from './network.js';

export const SETPRIV = '/usr/bin/setpriv';

/**
 * Runs in the job's directory, detached from the server so the job outlives it. Arguments: the
 * cgroup.procs files to enter, the file where the kernel counts OOM kills, then the job's argv.
 * The job gets its own process group (setsid), whose id it writes to `pgid`; the wrapper itself
 * stays outside the cgroups (a kill of every process there must leave it to write the exit code
 * to `exit`, and the OOM count to `oom`, whether or not a server is there to see it). The job's
 * first process ignores SIGTERM: that is bwrap's outer process, which would otherwise die of the
 * group's SIGTERM and report 143 instead of the command's own exit code; the command gets SIGTERM
 * back (jobArgv). fd 5 (the network helper's exit socket) stays with the wrapper alone.
 */
export const WRAPPER = `procs=$1 oom=$2; shift 2
/bin/sh -c 'trap "" TERM; for f in $0; do echo $$ > "$f" || exit 125; done; echo $$ > pgid; umask 002; exec /usr/bin/setsid "$@"' "$procs" "$@" 5>&-
echo $? > exit.tmp
[ -z "$oom" ] || grep -s "^oom_kill " "$oom" > oom
/bin/mv exit.tmp exit`;

/**
 * A gang's worker (gang.ts): WRAPPER (its second argument) with the output also copied to the
 * worker's own log (its first), while the spawn's stdout is the gang's merged log. tee is outside
 * the job's process group and cgroups, and ends once the job's last process has closed its
 * output; it keeps none of bwrap's and the network helper's descriptors.
 */
export const TEE_WRAPPER = `own=$1 body=$2; shift 2
{ /bin/sh -c "$body" orrery-wrapper "$@"; } 2>&1 | /usr/bin/tee -a "$own" 3>&- 4>&- 5>&-`;

/** Restores what the wrapper ignored (SIGTERM) and what `sh` ignores in background jobs. */
const SHELL = ['/usr/bin/env', '--default-signal=TERM,INT,QUIT'];

/** `setpriv` down to the job's uid with the jobs group, no capabilities and no_new_privs. */
export function asJob(id: JobIdentity, extra: string[] = []): string[] {
  const base = [SETPRIV, `--reuid=${id.uid}`, `--regid=${id.uid}`, `--groups=${id.gid}`];
  return [...base, '--bounding-set=-all', '--inh-caps=-all', ...extra, '--'];
}

export function bareArgv(command: string, workingDir: string): string[] {
  return [...SHELL, `--chdir=${workingDir}`, '/bin/sh', '-c', command];
}

export interface SandboxPlan {
  dataDir: string;
  dir: string;
  spec: JobSpec;
  command: string;
  /** Absent when the server is not root: the job then runs as the server's user. */
  identity?: JobIdentity;
  gpus: number[];
  network: boolean;
  /**
   * A gang's worker: the sandbox process of its rank 0, whose network namespace the worker
   * enters (as root, before dropping to its uid) instead of making its own (gang.ts).
   */
  joinNetOf?: number;
  /** Names that resolve to 127.0.0.1 in the job: a gang's workers' host names. */
  hosts?: string[];
  /** A gang's directory (its hostfile and agent socket, worker-exec.ts), shown read-only. */
  gangDir?: string;
}

export const NSENTER = '/usr/bin/nsenter';

/**
 * Prepares what the sandbox binds from the host, reachable by the job's uid, and returns the
 * job's argv: setpriv (when root), bwrap, then the command.
 */
export async function sandboxArgv(p: SandboxPlan): Promise<string[]> {
  const tmp = join(p.dir, 'tmp');
  const etcDir = writeEtc(p.dir, p.identity?.uid ?? process.getuid?.() ?? 0, p.network, p.hosts);
  if (p.identity) {
    const { uid, gid } = p.identity;
    await chown(tmp, uid, uid);
    await chmod(tmp, 0o700);
    await grantTraverse(p.dataDir, join(etcDir, 'passwd'), gid);
    for (const m of p.spec.mounts) {
      await shareVolume(m, p.dir, p.identity);
      await grantTraverse(p.dataDir, m.hostPath, gid);
    }
  }
  const sandbox = bwrapArgs({
    etcDir,
    tmpDir: tmp,
    mounts: p.spec.mounts,
    workingDir: p.spec.workingDir ?? '/tmp',
    hostname: p.spec.id,
    gpus: p.gpus,
    network: p.network,
    joinsNetwork: p.joinNetOf !== undefined,
    hosts: !!p.hosts?.length,
    gangDir: p.gangDir,
    ptys: p.identity !== undefined && sandboxPtys(),
  });
  const drop = p.identity ? asJob(p.identity, ['--no-new-privs']) : [];
  const enter =
    p.joinNetOf !== undefined ? [NSENTER, `--net=/proc/${p.joinNetOf}/ns/net`, '--'] : [];
  return [...enter, ...drop, BWRAP, ...sandbox, '--', ...SHELL, '/bin/sh', '-c', p.command];
}

/** The directory of the helper's API socket: short (sun_path) and owned by the job's uid. */
export async function socketDir(dir: string, identity?: JobIdentity): Promise<string> {
  const path = identity ? `/run/orrery/net/${identity.uid}` : join(dir, 'net');
  // Searchable on the way, so the helper (the job's uid) reaches its own directory. Made each
  // time (two cheap calls): /run is emptied at boot and may be cleaned while the server runs.
  if (identity) {
    await mkdir('/run/orrery/net', { recursive: true });
    await Promise.all(['/run/orrery', '/run/orrery/net'].map((d) => chmod(d, 0o711)));
  }
  await rm(path, { recursive: true, force: true });
  await mkdir(path, { recursive: true, mode: 0o700 });
  if (identity) await chown(path, identity.uid, identity.uid);
  return path;
}

/**
 * bwrap's --info-fd: `{"child-pid": N, …}`, or null when bwrap failed before cloning. Read to the
 * object's end: bwrap writes it in several pieces, and dies of SIGPIPE (141) if the reading end
 * is closed before the last.
 */
export function childPid(info: Readable): Promise<number | null> {
  return new Promise((resolve) => {
    let text = '';
    const pid = () => /"child-pid":\s*(\d+)/.exec(text)?.[1];
    const onData = (d: Buffer) => {
      text += String(d);
      if (/\n}/.test(text) && pid()) done(Number(pid()));
    };
    const onEnd = () => done(pid() ? Number(pid()) : null);
    const done = (pid: number | null) => {
      info.off('data', onData).off('end', onEnd).off('error', onEnd);
      resolve(pid);
    };
    info.on('data', onData).once('end', onEnd).once('error', onEnd);
  });
}

export interface BringUp {
  dir: string;
  identity?: JobIdentity;
  /** Whether jobs get a network (slirp4netns is installed). */
  network: boolean;
  forward?: { hostPort: number; guestPort: number };
  /** bwrap's info fd, and the wrapper's socket the helper exits with. */
  info: Readable;
  exit: Readable;
}

/**
 * Once bwrap has made the job's namespaces: its pid noted (`child.pid`, for exec, readiness and a
 * later server) and its network brought up, before the command is let go.
 */
/** Answers the host port the job's HTTP port is forwarded from, when it has one. */
export async function bringUp(b: BringUp): Promise<number | undefined> {
  // Made while bwrap starts: the helper's socket directory and log (apart from the job's).
  const [pid, sockets, log] = await Promise.all([
    childPid(b.info),
    b.network ? socketDir(b.dir, b.identity) : undefined,
    b.network ? open(join(b.dir, 'net.log'), 'w') : undefined,
  ]);
  try {
    if (pid === null) return undefined;
    const noted = writeFile(join(b.dir, 'child.pid'), String(pid));
    // Awaited after the network; a job removed meanwhile fails both, and the network's error wins.
    noted.catch(() => undefined);
    let bound: number | undefined;
    if (sockets && log) {
      bound = await startNetwork({
        childPid: pid,
        asJob: b.identity ? asJob(b.identity) : [],
        apiSocket: join(sockets, 'slirp.sock'),
        exitFd: b.exit,
        logFd: log.fd,
        forward: b.forward,
        root: b.identity !== undefined,
        ptys: b.identity !== undefined && sandboxPtys(),
      });
    }
    await noted;
    return bound;
  } finally {
    await log?.close();
  }
}

export interface Settling {
  dir: string;
  sandboxed: boolean;
  record: JobRecord;
  identity?: JobIdentity;
  /** Whether the job makes a network (a gang's worker joining rank 0's makes none). */
  network: boolean;
  fds: { info: Readable; block: Readable; exit: Readable };
  /** Stops the job whose network could not be made. */
  kill(): Promise<void>;
  /**
   * The command waits for this too (a gang's rank 0 until every worker has joined its network:
   * a command that ended at once would take the namespace the others join with it).
   */
  hold?: Promise<void>;
}

/**
 * The job's command waits on bwrap's block fd until its network is up (and `hold` has resolved).
 * A job whose network cannot be made is killed, and `failure` says why (observe reports it).
 * Resolves once the network is up (or the job stopped); the command is let go then, or once
 * `hold` resolves.
 */
export async function settle(s: Settling): Promise<void> {
  try {
    if (s.sandboxed) {
      const { port, guestPort } = s.record;
      const forward = port && guestPort ? { hostPort: port, guestPort } : undefined;
      const bound = await bringUp({
        dir: s.dir,
        identity: s.identity,
        network: s.network,
        forward,
        ...s.fds,
      });
      // The probed port was taken meanwhile: the job is reached on the one bound instead.
      if (bound !== undefined && bound !== port) {
        s.record.port = bound;
        await writeFile(join(s.dir, 'job.json'), JSON.stringify(s.record));
      }
    }
  } catch (e) {
    // Best effort: the file only carries the message; an early failure leaves nothing to kill.
    await writeFile(join(s.dir, 'failure'), (e as Error).message).catch(() => undefined);
    await s.kill().catch(() => undefined);
  } finally {
    // Without a pid (bwrap failed), or after the network is up: the command starts now.
    const release = () => {
      (s.fds.block as unknown as NodeJS.WritableStream).end('1');
      s.fds.info.destroy();
      s.fds.exit.destroy();
    };
    if (s.hold) void s.hold.then(release, release);
    else release();
  }
}

/**
 * What jobs cannot have on this host, and why: the jobs service refuses such a job when it is
 * created, the catalogue disables the apps that always ask for it (driver.ts `jobRefusals`).
 */
export function jobRefusals(host: { sandboxed: boolean; network: boolean }) {
  return {
    ...(!host.sandboxed
      ? {
          volumes:
            'Volumes need bubblewrap on the process runtime (apt-get install bubblewrap); this server runs jobs without it',
        }
      : {}),
    ...(host.sandboxed && !host.network
      ? {
          http: 'An HTTP port needs slirp4netns on the process runtime (apt-get install slirp4netns)',
        }
      : {}),
  };
}

/** The job's command line, or why this server cannot run the job at all. */
export function runnableCommand(
  spec: JobSpec,
  host: { sandboxed: boolean; network: boolean },
): string {
  const refused = jobRefusals(host);
  // A job queued before the server restarted on a host that lacks them.
  if (refused.volumes && spec.mounts.length > 0) throw new Error(refused.volumes);
  if (refused.http && spec.httpPort) throw new Error(refused.http);
  const command = shellCommand(spec);
  if (!command) {
    throw new Error(
      'The process runtime runs a command on this machine (the image is only recorded): the job has none',
    );
  }
  return command;
}
