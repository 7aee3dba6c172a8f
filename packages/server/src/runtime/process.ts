import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import {
  mkdir,
  open,
  readdir,
  readFile,
  readlink,
  rm,
  stat,
  statfs,
  writeFile,
} from 'node:fs/promises';
import { constants } from 'node:os';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import { describeMachine } from '../modules/clusters/bootstrap.js';
import type {
  ExecOptions,
  ExecSession,
  JobLimits,
  JobSpec,
  LogOptions,
  ObservedState,
  PoolCapacity,
  RuntimeDriver,
  StatsSample,
} from './driver.js';
import { LogFile } from './log-file.js';
import { JobListeners, POOL_NAME, shellCommand, usedBy } from './common.js';
import {
  groupAlive,
  groupTakesTerm,
  readStat,
  rssBytes,
  startedAt,
  takesTerm,
  TICKS_PER_SECOND,
  tree,
} from './process/proc.js';
import { freePort, listening } from '../net/ports.js';
import { gpuFields, sampleGpu } from './gpu-stats.js';
import { BWRAP, bwrapArgs, hiddenPaths } from './process/sandbox.js';

export interface ProcessDriverOptions {
  dataDir: string;
  /** Between SIGTERM and SIGKILL; default 10 s. */
  killGraceMs?: number;
  /** false runs jobs without bubblewrap even when it is installed (tests of that path). */
  sandbox?: boolean;
  /** The Docker socket, hidden from jobs like the default one. */
  dockerHost?: string;
}

/** What `start` records for the rest of the driver, and for a server started later. */
interface JobRecord {
  image: string;
  limits: JobLimits;
  /** The port given in PORT, when the job declared an HTTP port. */
  port?: number;
  createdAt: number;
}

const DEFAULT_PATH = '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin';

/**
 * Runs in the job's directory, detached from the server so the job outlives it. The job gets its
 * own process group (setsid), whose id it writes to `pgid`, and the wrapper writes the exit code
 * to `exit` when it ends, whether or not a server is there to see it. The job's first process
 * ignores SIGTERM: that is bwrap's outer process, which would otherwise die of the group's SIGTERM
 * and report 143 instead of the command's own exit code; the command gets SIGTERM back (jobArgv).
 */
const WRAPPER = `/bin/sh -c 'trap "" TERM; echo $$ > pgid; exec /usr/bin/setsid "$@"' orrery-job "$@"
echo $? > exit.tmp
/bin/mv exit.tmp exit`;

/**
 * Each job a process tree on this machine, under bubblewrap when `/usr/bin/bwrap` exists. State
 * lives in `<dataDir>/jobs/<id>/` (`job.json`, `wrapper.pid`, `pgid`, `exit`, the log), so a new
 * server finds its jobs again.
 */
export class ProcessDriver implements RuntimeDriver {
  readonly name = 'process';
  readonly warning?: string;
  private readonly root: string;
  private readonly sandboxed: boolean;
  private readonly killGraceMs: number;
  private readonly hidden: string[];
  private readonly listeners = new JobListeners();
  private readonly logFiles = new Map<string, LogFile>();
  /** Jobs not seen finished yet, with the state last reported. */
  private readonly watched = new Map<string, string>();
  private readonly timer: NodeJS.Timeout;
  private polling = false;
  private readonly machine: ReturnType<typeof describeMachine>;

  constructor(private readonly opts: ProcessDriverOptions) {
    this.root = join(opts.dataDir, 'jobs');
    this.sandboxed = (opts.sandbox ?? true) && existsSync(BWRAP);
    this.killGraceMs = opts.killGraceMs ?? 10_000;
    this.hidden = hiddenPaths(opts.dataDir, opts.dockerHost);
    this.machine = describeMachine(opts.dataDir);
    if (!this.sandboxed) {
      this.warning =
        'Jobs run unsandboxed on the host system as the server user (bubblewrap, /usr/bin/bwrap, is not installed): they see and may change everything that user can, and jobs with volumes are refused.';
    }
    // Stamps logs and notices state changes; jobs a previous server left running included.
    this.timer = setInterval(() => void this.poll(), 250);
    this.timer.unref();
    void this.list().then((ids) => ids.forEach((id) => this.watched.set(id, '')));
  }

  async start(spec: JobSpec): Promise<void> {
    const dir = this.dir(spec.id);
    const state = await this.observe(spec.id);
    if (state.state === 'running' || state.state === 'starting') {
      throw new Error(`Job ${spec.id} is already running`);
    }
    if (!this.sandboxed && spec.mounts.length > 0) {
      throw new Error(
        'Volumes need bubblewrap on the process runtime (apt-get install bubblewrap); this server runs jobs without it',
      );
    }
    const command = shellCommand(spec);
    if (!command) {
      throw new Error(
        'The process runtime runs a command on this machine (the image is only recorded): the job has none',
      );
    }
    const tmp = join(dir, 'tmp');
    await mkdir(tmp, { recursive: true });
    await Promise.all(
      ['exit', 'exit.tmp', 'pgid', 'wrapper.pid'].map((f) => rm(join(dir, f), { force: true })),
    );
    const port = spec.httpPort ? await freePort() : undefined;
    const home = this.sandboxed ? '/tmp' : tmp;
    const env: Record<string, string> = {
      PATH: DEFAULT_PATH,
      HOME: home,
      TMPDIR: home,
      ...spec.env,
      ...(port ? { PORT: String(port) } : {}),
    };
    const record: JobRecord = {
      image: spec.image,
      limits: spec.limits,
      port,
      createdAt: Date.now(),
    };
    await writeFile(join(dir, 'job.json'), JSON.stringify(record));
    const out = await open(join(dir, 'output'), 'a');
    try {
      const child = spawn(
        '/bin/sh',
        ['-c', WRAPPER, 'orrery-wrapper', ...this.jobArgv(spec, command, tmp)],
        {
          cwd: dir,
          env,
          detached: true,
          stdio: ['ignore', out.fd, out.fd],
        },
      );
      await new Promise<void>((resolve, reject) => {
        child.once('spawn', resolve);
        child.once('error', reject);
      });
      child.once('exit', () => this.listeners.emit(spec.id));
      child.unref();
      await writeFile(join(dir, 'wrapper.pid'), String(child.pid));
    } finally {
      await out.close();
    }
    this.watched.set(spec.id, '');
    void this.watchStart(spec.id);
  }

  /**
   * The wrapper writes `pgid` a few milliseconds after the spawn: looking closely for it then
   * reports the job running at once instead of at the next poll (250 ms).
   */
  private async watchStart(id: string) {
    const file = join(this.dir(id), 'pgid');
    for (let i = 0; i < 100; i++) {
      if (existsSync(file)) {
        this.listeners.emit(id);
        return;
      }
      await sleep(3);
    }
  }

  /** The job's own command line, sandboxed or not, ending in `sh -c command`. */
  private jobArgv(spec: JobSpec, command: string, tmp: string): string[] {
    // Restores what the wrapper ignored (SIGTERM) and what `sh` ignores in background jobs.
    const shell = ['/usr/bin/env', '--default-signal=TERM,INT,QUIT'];
    if (!this.sandboxed) {
      return [...shell, `--chdir=${spec.workingDir ?? tmp}`, '/bin/sh', '-c', command];
    }
    const sandbox = bwrapArgs({
      mounts: spec.mounts,
      tmpDir: tmp,
      workingDir: spec.workingDir ?? '/tmp',
      hidden: this.hidden,
      gpu: spec.limits.gpu?.vendor === 'nvidia',
    });
    return [BWRAP, ...sandbox, '--', ...shell, '/bin/sh', '-c', command];
  }

  async kill(id: string): Promise<void> {
    const dir = this.dir(id);
    // A pgid is only signalled while its wrapper lives: after the job ends, the number may be
    // another group's.
    let pgid = await readNumber(join(dir, 'pgid'));
    for (let i = 0; pgid === null && i < 50 && (await this.wrapperAlive(id)); i++) {
      await sleep(20);
      pgid = await readNumber(join(dir, 'pgid'));
    }
    if (pgid === null || !(await this.wrapperAlive(id))) return;
    // Right after the start, the group's only processes ignore SIGTERM (WRAPPER) and the command
    // would miss it: wait for the command (one that ignores SIGTERM itself gets it anyway).
    for (let i = 0; i < 50 && !(await groupTakesTerm(pgid.value)); i++) await sleep(20);
    signal(-pgid.value, 'SIGTERM');
    const deadline = Date.now() + this.killGraceMs;
    while (Date.now() < deadline && (await groupAlive(pgid.value))) await sleep(50);
    if (await groupAlive(pgid.value)) signal(-pgid.value, 'SIGKILL');
    // The wrapper writes the exit code right after its child ends.
    for (let i = 0; i < 100 && (await this.wrapperAlive(id)); i++) await sleep(20);
    this.listeners.emit(id);
  }

  async observe(id: string): Promise<ObservedState> {
    const dir = this.dir(id);
    const record = await this.record(id);
    if (!record) return { state: 'missing' };
    const exited = async (): Promise<ObservedState | null> => {
      const [exit, pgid] = await Promise.all([
        readNumber(join(dir, 'exit')),
        readNumber(join(dir, 'pgid')),
      ]);
      return (
        exit && {
          state: 'exited',
          exitCode: exit.value,
          finishedAt: exit.mtime,
          ...(pgid ? { startedAt: pgid.mtime } : {}),
        }
      );
    };
    const before = await exited();
    if (before) return before;
    if (await this.wrapperAlive(id)) {
      const pgid = await readNumber(join(dir, 'pgid'));
      return pgid ? { state: 'running', startedAt: pgid.mtime } : { state: 'starting' };
    }
    const after = await exited();
    if (after) return after;
    // Between writing job.json and wrapper.pid, or lost (the machine restarted under the job).
    const spawning =
      !existsSync(join(dir, 'wrapper.pid')) && Date.now() - record.createdAt < 10_000;
    return spawning ? { state: 'starting' } : { state: 'missing' };
  }

  onChange(listener: (id: string) => void): () => void {
    return this.listeners.add(listener);
  }

  async list(): Promise<string[]> {
    const ids = await readdir(this.root).catch(() => [] as string[]);
    return ids.filter((id) => existsSync(join(this.root, id, 'job.json')));
  }

  async remove(id: string): Promise<void> {
    if (await this.wrapperAlive(id)) await this.kill(id);
    const dir = this.dir(id);
    const state = ['job.json', 'wrapper.pid', 'pgid', 'exit', 'exit.tmp', 'tmp'];
    await Promise.all(state.map((f) => rm(join(dir, f), { recursive: true, force: true })));
    this.watched.delete(id);
  }

  async logs(id: string, options: LogOptions): Promise<Readable> {
    return this.logFile(id).read(options, {
      finished: async () => {
        const s = (await this.observe(id)).state;
        return s !== 'running' && s !== 'starting';
      },
    });
  }

  async *stats(id: string, abort: AbortSignal): AsyncIterable<StatsSample> {
    let prev: { ticks: number; at: number } | undefined;
    const gpus = (await this.record(id))?.limits.gpu?.vendor === 'nvidia';
    while (!abort.aborted && (await this.observe(id)).state === 'running') {
      const wrapper = await readNumber(join(this.dir(id), 'wrapper.pid'));
      if (!wrapper) return;
      const procs = await tree(wrapper.value);
      const at = Date.now();
      const ticks = procs.reduce((n, p) => n + p.cpuTicks, 0);
      const memoryBytes = (await Promise.all(procs.map((p) => rssBytes(p.pid)))).reduce(
        (a, b) => a + b,
        0,
      );
      if (prev) {
        // Children reaped in between move their time into the parent's; it never goes back.
        const cpu = Math.max(0, (ticks - prev.ticks) / TICKS_PER_SECOND / ((at - prev.at) / 1000));
        const gpu = gpus ? await sampleGpu(procs.map((p) => p.pid)) : null;
        yield { cpu, memoryBytes, timestamp: at / 1000, ...gpuFields(gpu) };
      }
      prev = { ticks, at };
      try {
        await sleep(1000, undefined, { signal: abort });
      } catch {
        return;
      }
    }
  }

  async endpoint(id: string): Promise<{ host: string; port: number } | null> {
    const port = (await this.record(id))?.port;
    if (!port || (await this.observe(id)).state !== 'running') return null;
    return (await listening(port)) ? { host: '127.0.0.1', port } : null;
  }

  async capacity(): Promise<PoolCapacity[]> {
    const running: JobLimits[] = [];
    for (const id of await this.list()) {
      const s = (await this.observe(id)).state;
      const record = await this.record(id);
      if (record && (s === 'running' || s === 'starting')) running.push(record.limits);
    }
    const used = usedBy(running);
    const m = this.machine;
    const disk = await statfs(this.opts.dataDir).catch(() => null);
    return [
      {
        name: POOL_NAME,
        cpu: m.cpu,
        memory: m.memory,
        diskSize: disk ? disk.bavail * disk.bsize : m.disk,
        ...(m.nvidia ? { gpu: { vendor: 'nvidia' as const, ...m.nvidia } } : {}),
        availableCpu: m.cpu - used.cpu,
        availableMemory: m.memory - used.memory,
      },
    ];
  }

  /**
   * Sandboxed: the command runs inside the job's mount, PID and IPC namespaces (nsenter into the
   * job's command, see execTarget) without capabilities, like the job. Unsandboxed: in the job's working
   * directory. Both with the job's environment, read from /proc. No terminal: `tty` is ignored.
   */
  async exec(id: string, options: ExecOptions): Promise<ExecSession> {
    if ((await this.observe(id)).state !== 'running') throw new Error(`Job ${id} is not running`);
    const target = await this.execTarget(id);
    if (!target) throw new Error(`Job ${id} has no process to exec in`);
    const environ = await readFile(`/proc/${target.pid}/environ`, 'utf8');
    const env = Object.fromEntries(
      environ
        .split('\0')
        .filter(Boolean)
        .map((kv) => [kv.slice(0, kv.indexOf('=')), kv.slice(kv.indexOf('=') + 1)]),
    );
    const [file, args, cwd] = this.sandboxed
      ? [
          'nsenter',
          [
            `--target=${target.pid}`,
            ...(process.getuid?.() === 0 ? [] : ['--user', '--preserve-credentials']),
            '--mount',
            '--pid',
            '--ipc',
            '--wd',
            '--',
            'setpriv',
            '--bounding-set=-all',
            '--inh-caps=-all',
            '--',
            ...options.command,
          ],
          undefined,
        ]
      : [options.command[0], options.command.slice(1), await readlink(`/proc/${target.pid}/cwd`)];
    const child = spawn(file, args, {
      cwd,
      env,
      stdio: [options.stdin ? 'pipe' : 'ignore', 'pipe', 'pipe'],
    });
    const exitCode = new Promise<number>((resolve) => {
      child.once('error', () => resolve(127));
      child.once('exit', (code, sig) => resolve(code ?? 128 + signalNumber(sig)));
    });
    return {
      stdin: child.stdin ?? undefined,
      // Both piped above.
      stdout: child.stdout!,
      stderr: child.stderr!,
      exitCode,
    };
  }

  /**
   * The job's command: its first process that takes SIGTERM, which is past the wrapper and, when
   * sandboxed, inside the sandbox once bwrap has set it up. One that ignores SIGTERM itself is
   * found by waiting a second for the first; the deepest process then.
   */
  private async execTarget(id: string) {
    const pgid = await readNumber(join(this.dir(id), 'pgid'));
    if (!pgid) return undefined;
    let procs = await tree(pgid.value);
    for (let i = 0; i < 50; i++) {
      for (const p of procs) if (await takesTerm(p.pid)) return p;
      await sleep(20);
      procs = await tree(pgid.value);
    }
    return procs.at(-1);
  }

  async close(): Promise<void> {
    clearInterval(this.timer);
    this.listeners.clear();
  }

  private async poll() {
    if (this.polling) return;
    this.polling = true;
    try {
      for (const [id, last] of this.watched) {
        const s = await this.observe(id);
        const finished = s.state === 'exited' || s.state === 'missing';
        await this.logFile(id).stamp(finished);
        if (finished) this.watched.delete(id);
        if (s.state !== last) {
          if (!finished) this.watched.set(id, s.state);
          this.listeners.emit(id);
        }
      }
    } finally {
      this.polling = false;
    }
  }

  private dir(id: string) {
    if (!/^[\w.-]+$/.test(id)) throw new Error(`Bad job id ${id}`);
    return join(this.root, id);
  }

  private logFile(id: string): LogFile {
    let f = this.logFiles.get(id);
    if (!f) this.logFiles.set(id, (f = new LogFile(this.dir(id))));
    return f;
  }

  private async record(id: string): Promise<JobRecord | null> {
    const text = await readFile(join(this.dir(id), 'job.json'), 'utf8').catch(() => null);
    return text ? (JSON.parse(text) as JobRecord) : null;
  }

  /** Whether the wrapper still runs: its pid alive and started when `wrapper.pid` was written. */
  private async wrapperAlive(id: string): Promise<boolean> {
    const wrapper = await readNumber(join(this.dir(id), 'wrapper.pid'));
    const s = wrapper && (await readStat(wrapper.value));
    if (!s || s.state === 'Z') return false;
    return Math.abs((await startedAt(s)) - wrapper.mtime.getTime()) < 10_000;
  }
}

/** A number written to a file, with the time it was written; null while absent or half-written. */
async function readNumber(path: string): Promise<{ value: number; mtime: Date } | null> {
  const [text, st] = await Promise.all([
    readFile(path, 'utf8').catch(() => ''),
    stat(path).catch(() => null),
  ]);
  const value = Number.parseInt(text.trim(), 10);
  return st && /^-?\d+$/.test(text.trim()) ? { value, mtime: st.mtime } : null;
}

function signal(target: number, sig: NodeJS.Signals) {
  try {
    process.kill(target, sig);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ESRCH') throw e;
  }
}

function signalNumber(sig: NodeJS.Signals | null): number {
  return sig ? (constants.signals[sig] ?? 0) : 0;
}
