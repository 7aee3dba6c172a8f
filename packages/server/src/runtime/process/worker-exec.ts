import { timingSafeEqual } from 'node:crypto';
import { chmod, chown, mkdir, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server, type Socket } from 'node:net';
import { join } from 'node:path';
import type { ExecSession } from '../driver.js';
import { WORKER_EXEC_GUEST, WORKER_EXEC_HOST } from './app-runtime.js';

/**
 * The remote launch agent of a gang's workers (docs/jobs.md "MPI"): `orrery-worker-exec <host>
 * <command>` (bin/, beside this file) in one worker starts a command in another worker of the same job,
 * as `ssh` would between a cluster's nodes, so `mpirun` launches its daemons with no SSH server.
 * Each gang has a directory of its own (its hostfile and this socket), bound into its workers'
 * sandboxes alone at GUEST_DIR; the socket's server knows only that gang's workers, so a job
 * reaches nothing else through it: not the host, not another job. A token in the workers'
 * environment guards it too where the directory is on the workers' host (without the sandbox).
 * Frames both ways: a type byte, a 4-byte big-endian length, the payload.
 */

const REQUEST = 82;
const STDIN = 0;
const STDIN_END = 5;
const STDOUT = 1;
const STDERR = 2;
const EXIT = 3;
/** No frame of ours is larger (a request, a piece of input): a larger one is no client of ours. */
const MAX_FRAME = 1 << 20;

/** Where a sandboxed worker sees its gang's directory. */
export const GUEST_DIR = '/run/orrery';

/** What the socket's server may do, all of it within one gang. */
export interface GangTarget {
  /** The workers' host names in rank order, as the hostfile lists them. */
  hosts: string[];
  token: string;
  exec(rank: number, command: string[]): Promise<ExecSession>;
  /** Resolves once worker 0's command has ended (or `abort` fires). */
  firstEnded(abort: AbortSignal): Promise<void>;
}

/** A gang's directory: short, for the socket's path (sun_path), and outside the data directory. */
export function gangDir(root: string, id: string, rootServer: boolean): string {
  return rootServer ? join('/run/orrery/gang', id) : join(root, id, 'run');
}

/**
 * The environment that lets a worker launch MPI across the gang: the hostfile and the agent for
 * Open MPI (plain `mpirun` then spans the workers), the agent on PATH. `keep_fqdn_hostnames` and
 * `if_base_do_not_resolve` keep Open MPI from taking the workers' names, which resolve to the
 * shared network's own address, for this machine's.
 */
export function mpiEnv(o: {
  dir: string;
  sandboxed: boolean;
  token: string;
  path: string;
}): Record<string, string> {
  const dir = o.sandboxed ? GUEST_DIR : o.dir;
  const agent = o.sandboxed ? WORKER_EXEC_GUEST : WORKER_EXEC_HOST;
  const hostfile = join(dir, 'hostfile');
  return {
    PATH: `${o.path}:${join(agent, '..')}`,
    ORRERY_HOSTFILE: hostfile,
    ORRERY_WORKER_EXEC_SOCKET: join(dir, 'exec.sock'),
    ORRERY_WORKER_EXEC_TOKEN: o.token,
    OMPI_MCA_plm_rsh_agent: agent,
    OMPI_MCA_orte_default_hostfile: hostfile,
    OMPI_MCA_orte_keep_fqdn_hostnames: '1',
    OMPI_MCA_if_base_do_not_resolve: '1',
    // The sandbox shows no /sys: hwloc would say so on every MPI process's start.
    HWLOC_HIDE_ERRORS: '2',
    // Without the sandbox the workers share this machine's network, whose other addresses a
    // root server's firewall may close to jobs' uids (docs/runtimes.md): loopback, then.
    ...(o.sandboxed
      ? {}
      : { OMPI_MCA_oob_tcp_if_include: 'lo', OMPI_MCA_btl_tcp_if_include: 'lo' }),
  };
}

/** The gang's servers, by gang id. */
export class WorkerAgents {
  private readonly servers = new Map<string, Server>();

  constructor(private readonly access: { gid?: number; root: boolean }) {}

  /**
   * Makes the gang's directory (its hostfile, one line per worker) and serves its socket; again
   * for a gang a previous server started (the workers see the directory, so a new socket in it).
   */
  async open(dir: string, gang: string, target: GangTarget): Promise<void> {
    await this.close(gang);
    const { gid, root } = this.access;
    if (root) {
      await mkdir('/run/orrery/gang', { recursive: true });
      await Promise.all(['/run/orrery', '/run/orrery/gang'].map((d) => chmod(d, 0o711)));
    }
    await mkdir(dir, { recursive: true });
    // The jobs group reads it (the workers' sandboxes bind it); outside the sandbox, each worker
    // of a root server has a uid of its own and no group: the token alone guards the socket.
    await chmod(dir, gid !== undefined ? 0o750 : root ? 0o755 : 0o700);
    if (gid !== undefined) await chown(dir, 0, gid);
    const hostfile = join(dir, 'hostfile');
    await writeFile(hostfile, target.hosts.map((h) => `${h} slots=1\n`).join(''));
    await chmod(hostfile, 0o644);
    const path = join(dir, 'exec.sock');
    await rm(path, { force: true });
    const server = createServer((socket) => serve(socket, target));
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(path, () => resolve());
    });
    server.on('error', () => undefined);
    await chmod(path, gid !== undefined ? 0o660 : root ? 0o666 : 0o600);
    if (gid !== undefined) await chown(path, 0, gid);
    this.servers.set(gang, server);
  }

  /**
   * Stops taking connections for the gang; with `dir`, its directory goes too (the gang has
   * ended). Commands running through the agent are not waited for: they end with the gang, or
   * with this server's process.
   */
  async close(gang: string, dir?: string): Promise<void> {
    this.servers.get(gang)?.close();
    this.servers.delete(gang);
    if (dir) await rm(dir, { recursive: true, force: true });
  }

  /** The server stops; the gangs' directories stay for the next one to serve. */
  async closeAll(): Promise<void> {
    await Promise.all([...this.servers.keys()].map((g) => this.close(g)));
  }
}

function frame(type: number, payload: Buffer): Buffer {
  const head = Buffer.alloc(5);
  head[0] = type;
  head.writeUInt32BE(payload.length, 1);
  return Buffer.concat([head, payload]);
}

const tokenMatches = (given: unknown, token: string) =>
  typeof given === 'string' &&
  given.length === token.length &&
  timingSafeEqual(Buffer.from(given), Buffer.from(token));

/** The worker a host name names: its host name, or its rank. */
function rankOf(host: string, hosts: string[]): number {
  const named = hosts.indexOf(host);
  if (named >= 0) return named;
  return /^\d+$/.test(host) && Number(host) < hosts.length ? Number(host) : -1;
}

/** One client: its request, then the command's input and output until it exits. */
function serve(socket: Socket, target: GangTarget) {
  const abort = new AbortController();
  let pending = Buffer.alloc(0);
  let session: ExecSession | undefined;
  let requested = false;
  /** Input that came before the command started. */
  const early: Buffer[] = [];
  let inputEnded = false;
  const send = (type: number, payload: Buffer) => {
    if (!socket.writable) return true;
    return socket.write(frame(type, payload));
  };
  const finish = (code: number, message?: string) => {
    if (message) send(STDERR, Buffer.from(`orrery-worker-exec: ${message}\n`));
    send(EXIT, Buffer.from(JSON.stringify({ exit_code: code })));
    socket.end();
  };
  const onInput = (type: number, payload: Buffer) => {
    if (type === STDIN) {
      if (!session?.stdin) early.push(payload);
      // The client's input waits for the command to read it.
      else if (!session.stdin.write(payload)) {
        socket.pause();
        session.stdin.once('drain', () => socket.resume());
      }
    } else if (type === STDIN_END) {
      inputEnded = true;
      session?.stdin?.end();
    }
  };
  socket.on('error', () => undefined);
  socket.on('close', () => {
    abort.abort();
    session?.stdin?.end();
  });
  socket.on('data', (d: Buffer) => {
    pending = Buffer.concat([pending, d]);
    while (pending.length >= 5) {
      const length = pending.readUInt32BE(1);
      if (length > MAX_FRAME) return socket.destroy();
      if (pending.length < 5 + length) return;
      const [type, payload] = [pending[0], pending.subarray(5, 5 + length)];
      pending = pending.subarray(5 + length);
      if (requested) onInput(type, payload);
      else if (type === REQUEST) {
        requested = true;
        void start(payload);
      } else return socket.destroy();
    }
  });

  async function start(payload: Buffer) {
    let request: { host?: unknown; command?: unknown; wait?: unknown; token?: unknown };
    try {
      request = JSON.parse(String(payload)) as typeof request;
    } catch {
      return finish(255, 'bad request');
    }
    if (!tokenMatches(request.token, target.token)) {
      return finish(255, 'refused: not a worker of this job');
    }
    if (request.wait === true) {
      await target.firstEnded(abort.signal);
      return finish(0);
    }
    const { host, command } = request;
    if (typeof host !== 'string' || typeof command !== 'string') return finish(255, 'bad request');
    const rank = rankOf(host, target.hosts);
    if (rank < 0) {
      return finish(
        255,
        `${host} is not a worker of this job; its workers are ${target.hosts.join(', ')}`,
      );
    }
    try {
      session = await target.exec(rank, ['/bin/sh', '-c', command]);
    } catch (e) {
      return finish(255, `${host}: ${(e as Error).message}`);
    }
    const s = session;
    s.stdin?.on('error', () => undefined);
    for (const d of early.splice(0)) s.stdin?.write(d);
    if (inputEnded || abort.signal.aborted) s.stdin?.end();
    const relay = (from: NodeJS.ReadableStream | undefined, type: number) =>
      new Promise<void>((resolve) => {
        if (!from) return resolve();
        from.on('data', (d: Buffer) => {
          // The command's output waits for the client's reader, as over ssh.
          if (!send(type, d)) {
            from.pause();
            socket.once('drain', () => from.resume());
          }
        });
        from.once('end', resolve).once('error', () => resolve());
      });
    const [code] = await Promise.all([
      s.exitCode,
      relay(s.stdout, STDOUT),
      relay(s.stderr, STDERR),
    ]);
    finish(code);
  }
}
