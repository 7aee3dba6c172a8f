import { existsSync, watch, type FSWatcher } from 'node:fs';
import { chmod, chown, mkdir, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import { JOB_REASONS } from '@orrery/contract';
import type {
  ExecOptions,
  ExecSession,
  JobSpec,
  LogOptions,
  ObservedState,
  NodeCapacity,
  PoolCapacity,
  RuntimeDriver,
  StatsSample,
} from '../driver.js';
import { JobListeners, shellCommand } from '../common.js';
import { summedStats } from '../gang.js';
import { LogFile } from '../log-file.js';
import { readNumber } from '../process/exit.js';
import { writeEtc } from '../process/identity.js';
import { bwrapArgs } from '../process/sandbox.js';
import { SlurmUnreachable, type SlurmClient, type SlurmJob } from './client.js';
import { slurmClient } from './connect.js';
import { passwdIds, type SlurmOptions } from './options.js';
import { JOB_FILES, KILL_SIGNAL, batchScript } from './script.js';
import {
  GANG_FILES,
  RANK_PLACEHOLDER,
  WORKER_LOG,
  gangBatchScript,
  gangWorkerScript,
  workerDir,
} from './gang-script.js';
import { gangExit, gangStarted, stateFiles } from './gang.js';
import { EXEC_NEEDS_COMMANDS, stepArgs, stepTarget } from './exec.js';
import { gangMpi } from './mpi.js';
import { slurmMounts } from './volumes.js';
import { poolCapacityOf, readSlurmCapacity } from './capacity.js';
import { partitionOf, slurmNodes } from './nodes.js';
import { statsFromFile } from './stats.js';
import { observedOf, requeued } from './state.js';

/** Slurm's job name for an Orrery job: how list() and a restarted server find it again. */
export const JOB_PREFIX = 'orrery-';
const POLL_MS = 1000;
/** How long a kill waits for Slurm to end the job once its processes have had SIGKILL. */
const KILLED_SETTLE_MS = 10_000;

/** What start() keeps in the job's directory (`job.json`) for observe, endpoint and stats. */
interface JobRecord {
  slurmId: number;
  memory: number;
  httpPort?: number;
  /** A job of several workers (gang-script.ts): one node each. */
  workers?: number;
}

/**
 * Jobs as Slurm batch jobs, submitted as the unprivileged service user through Slurm's commands
 * or slurmrestd (client.ts). Each job has a directory in the shared directory every node sees,
 * `<shared>/jobs/<id>`: its batch script's record, its output `out.log`, the `exit` the script
 * writes, and the sandbox's etc and tmp. Slurm is the job's state while it remembers the job
 * (MinJobAge); `exit` after that.
 */
export class SlurmDriver implements RuntimeDriver {
  readonly name = 'slurm' as const;
  /** One allocation of N nodes, a worker on each (gang-script.ts). */
  readonly gangs = true as const;
  private readonly listeners = new JobListeners();
  private readonly records = new Map<string, JobRecord>();
  /** The last state seen of each job: what observe says while slurmctld does not answer. */
  private readonly last = new Map<string, ObservedState>();
  private readonly watched = new Set<string>();
  /** Jobs whose command has written its `exit`: told as soon as the file appears (watchExit). */
  private readonly exitWatches = new Map<string, FSWatcher>();
  private readonly exitSeen = new Set<string>();
  private readonly logFiles = new Map<string, LogFile>();
  private readonly ids: { uid: number; gid: number };
  private readonly timer: NodeJS.Timeout;
  private polling = false;

  constructor(
    private readonly options: SlurmOptions,
    private readonly client: SlurmClient,
    private readonly killGraceMs: number,
  ) {
    this.ids = passwdIds(options.user);
    this.timer = setInterval(() => void this.poll(), POLL_MS);
    this.timer.unref();
  }

  static async connect(options: SlurmOptions, killGraceMs: number): Promise<SlurmDriver> {
    const client = slurmClient(options);
    // Fails now, with Slurm's own words, when the cluster does not answer.
    await client.nodes();
    await mkdir(join(options.sharedDir, 'jobs'), { recursive: true, mode: 0o755 });
    return new SlurmDriver(options, client, killGraceMs);
  }

  async start(spec: JobSpec): Promise<void> {
    const dir = this.dir(spec.id);
    // Submitted already (a server restarted between submit and its record): never twice.
    const known = await this.record(spec.id);
    if (known && (await this.client.job(known.slurmId).catch(() => null))) return;
    const command = shellCommand(spec);
    if (!command)
      throw new Error('The slurm runtime runs a command on the nodes: the job has none');
    const workers = spec.workers ?? 1;
    const gang = workers > 1;
    // A gang's workers each have a directory of their own (gang-script.ts).
    const own = gang ? [...Array(workers).keys()].map((r) => join(dir, workerDir(r))) : [dir];
    await rm(dir, { recursive: true, force: true });
    for (const d of own) await mkdir(join(d, 'tmp'), { recursive: true });
    const mounts = await slurmMounts(spec, dir, this.options.sharedDir, this.ids);
    // pasta answers DNS at the node's resolver address: the node's resolv.conf stays.
    const etcDir = writeEtc(dir, this.ids.uid, false);
    const perWorker = join(dir, workerDir(0)).replace(/0$/, RANK_PLACEHOLDER);
    const sandbox = bwrapArgs({
      etcDir,
      tmpDir: join(gang ? perWorker : dir, 'tmp'),
      mounts,
      workingDir: spec.workingDir ?? '/tmp',
      hostname: gang ? `${spec.id}.w${RANK_PLACEHOLDER}` : spec.id,
      gpus: [],
      network: false,
      // A worker's network namespace is made around bwrap (gang-script.ts).
      joinsNetwork: gang,
      batch: { gpus: !!spec.limits.gpu },
    });
    // A worker's /etc/hosts names it (gang-script.ts); its run directory serves MPI (mpi.ts).
    const mpi = gang ? await gangMpi(spec, dir, workers, perWorker, this.ids) : undefined;
    if (mpi) {
      const ids = ['--uid', String(this.ids.uid), '--gid', String(this.ids.gid)];
      sandbox.push('--ro-bind', join(perWorker, 'hosts'), '/etc/hosts', ...ids, ...mpi.binds);
    }
    const pools = spec.placement?.pools ?? [];
    // Asked once: the forward's addresses and the partitions come from the same list.
    const nodes = spec.httpPort || gang || pools.length > 0 ? await this.client.nodes() : [];
    const nodeAddresses =
      spec.httpPort || gang ? Object.fromEntries(nodes.map((n) => [n.name, n.address])) : {};
    const cpus = Math.max(1, Math.ceil(spec.limits.cpu));
    const env = { ...spec.env, ...mpi?.env };
    const plan = { spec: { ...spec, mounts, env }, jobDir: dir, command, sandbox, nodeAddresses };
    const gangPlan = { ...plan, workers, cpus, ...this.ids };
    const script = gang ? gangBatchScript(gangPlan) : batchScript(plan);
    await writeFile(join(dir, 'job.sh'), script, { mode: 0o600 });
    const files = [dir, join(dir, 'job.sh'), ...own.flatMap((d) => [d, join(d, 'tmp')])];
    if (gang) {
      await writeFile(join(dir, GANG_FILES.worker), gangWorkerScript(gangPlan), { mode: 0o600 });
      files.push(join(dir, GANG_FILES.worker));
    }
    // slurmstepd opens out.log as the service user, and the script writes `exit` beside it.
    for (const d of new Set(files)) await chown(d, this.ids.uid, this.ids.gid);
    for (const d of own) await chmod(join(d, 'tmp'), 0o700);
    const gpu = spec.limits.gpu;
    const slurmId = await this.client.submit({
      name: `${JOB_PREFIX}${spec.id}`,
      script,
      output: join(dir, gang ? GANG_FILES.batchLog : 'out.log'),
      workdir: dir,
      cpus,
      nodes: gang ? workers : undefined,
      memoryMb: Math.max(1, Math.ceil(spec.limits.memory / 2 ** 20)),
      gres: gpu ? ['gpu', gpu.model, gpu.count].filter(Boolean).join(':') : undefined,
      partition: partitionOf(pools, nodes),
      timeMinutes: spec.placement?.maxRunTimeMinutes,
    });
    const record: JobRecord = {
      slurmId,
      memory: spec.limits.memory,
      httpPort: spec.httpPort,
      ...(gang ? { workers } : {}),
    };
    await writeFile(join(dir, 'job.json'), JSON.stringify(record));
    this.records.set(spec.id, record);
    this.watched.add(spec.id);
    this.watchExit(spec.id);
    this.listeners.emit(spec.id);
  }

  /**
   * SIGTERM to every process of the job, then after the grace period the signal on which the
   * batch script SIGKILLs the sandbox (KILL_SIGNAL), whatever moment the kill comes: Slurm's own
   * SIGKILL would come only at its KillWait (30 s by default). A kill while Slurm still launches
   * the job, which no signal reaches yet, leaves `killed` for the batch script, which then never
   * starts the command.
   */
  async kill(id: string): Promise<void> {
    const rec = await this.record(id);
    if (!rec) return;
    // The job's directory may be gone already; scancel below still stops the job.
    await writeFile(join(this.dir(id), JOB_FILES.killed), '').catch(() => undefined);
    // `--full`: every process of the job gets SIGTERM, not only the batch shell (which ignores it).
    await this.signal(rec.slurmId, 'TERM');
    if (await this.ended(id, this.killGraceMs)) return;
    await this.signal(rec.slurmId, KILL_SIGNAL);
    // Ends a job still launching; one whose processes are gone ends at once.
    await this.client.cancel(rec.slurmId);
    await this.ended(id, KILLED_SETTLE_MS);
  }

  /**
   * A signal to every process of the job. Slurm refuses one to a job between states (its batch
   * step still launching, on a loaded node): the kill goes on, and the cancel that follows it
   * ends such a job, or fails the kill with Slurm's own answer. An unreachable Slurm fails it now.
   */
  private async signal(slurmId: number, signal: 'TERM' | typeof KILL_SIGNAL) {
    await this.client.terminate(slurmId, signal).catch((e: unknown) => {
      if (e instanceof SlurmUnreachable) throw e;
    });
  }

  /** Whether Slurm says the job is over within `ms`. */
  private async ended(id: string, ms: number): Promise<boolean> {
    const deadline = Date.now() + ms;
    for (;;) {
      const s = await this.observe(id);
      if (s.state === 'exited' || s.state === 'missing') return true;
      if (Date.now() >= deadline) return false;
      await sleep(Math.min(250, Math.max(0, deadline - Date.now())));
    }
  }

  async observe(id: string): Promise<ObservedState> {
    const rec = await this.record(id);
    if (!rec) return { state: 'missing' };
    const exited = this.exitSeen.has(id) && (await this.commandExit(id));
    if (exited) {
      this.last.set(id, exited);
      return exited;
    }
    let seen: ObservedState;
    try {
      const job = await this.client.job(rec.slurmId);
      if (job && requeued(job) && job.state !== 'CANCELLED') await this.client.cancel(job.id);
      seen = await this.fromCommand(
        id,
        job ? observedOf(job, rec.memory) : await this.exitFile(id),
      );
    } catch (e) {
      // slurmctld restarting or out of reach: the job is not lost, its state is unknown.
      if (!(e instanceof SlurmUnreachable)) throw e;
      return (
        this.last.get(id) ?? { state: 'starting', reason: 'SlurmUnreachable', message: e.message }
      );
    }
    this.last.set(id, seen);
    return seen;
  }

  onChange(listener: (id: string) => void): () => void {
    return this.listeners.add(listener);
  }

  async list(): Promise<string[]> {
    const ids = new Set<string>();
    const entries = await readdir(join(this.options.sharedDir, 'jobs')).catch(() => []);
    for (const id of entries) if (await this.record(id)) ids.add(id);
    for (const j of await this.client.jobs()) {
      if (this.isOurs(j)) {
        ids.add(j.name.slice(JOB_PREFIX.length));
      }
    }
    return [...ids];
  }

  async remove(id: string): Promise<void> {
    const dir = this.dir(id);
    // A cancelled job is removed as soon as its status is final, which may be before kill() has
    // read its record: a job Slurm still runs is stopped here, or nothing would.
    if (await this.record(id)) {
      const s = await this.observe(id).catch(() => null);
      if (s && s.state !== 'exited' && s.state !== 'missing') await this.kill(id);
    }
    // The output and its index stay: logs() reads them after the job is gone.
    const state = stateFiles((await this.record(id))?.workers ?? 0);
    await Promise.all(state.map((f) => rm(join(dir, f), { recursive: true, force: true })));
    this.records.delete(id);
    this.last.delete(id);
    this.unwatch(id);
  }

  /** A command in the job's sandbox, or a gang worker's, as a step of its allocation (exec.ts). */
  async exec(id: string, options: ExecOptions): Promise<ExecSession> {
    const rec = await this.record(id);
    const own = rec?.workers ? join(this.dir(id), workerDir(options.worker ?? 0)) : this.dir(id);
    const target = rec && (await stepTarget(rec.slurmId, own));
    if (!target) throw new Error('The job has no process to exec in');
    if (!this.client.step) throw new Error(EXEC_NEEDS_COMMANDS);
    return this.client.step(stepArgs(target, options), options.stdin);
  }

  /** A gang's log is its workers' merged (srun's output); `worker` picks one worker's own. */
  async logs(id: string, options: LogOptions): Promise<Readable> {
    return this.logFile(id, options.worker).readJob(options, () => this.observe(id));
  }

  /** A gang's: its workers' added up, or one worker's (`worker`), each sampled on its node. */
  async *stats(id: string, abort: AbortSignal, worker?: number): AsyncIterable<StatsSample> {
    const rec = await this.record(id);
    const job = rec && (await this.client.job(rec.slurmId).catch(() => null));
    if (!rec || !job || job.state !== 'RUNNING') return;
    if (!rec.workers) return yield* statsFromFile(join(this.dir(id), JOB_FILES.stats), abort);
    const of = (rank: number) => (signal: AbortSignal) =>
      statsFromFile(join(this.dir(id), workerDir(rank), JOB_FILES.stats), signal);
    if (worker !== undefined) return yield* of(worker)(abort);
    yield* summedStats([...Array(rec.workers).keys()].map(of), abort);
  }

  async endpoint(id: string): Promise<{ host: string; port: number } | null> {
    const rec = await this.record(id);
    // A gang's is rank 0's, on the allocation's first node, the batch host (gang-script.ts).
    if (!rec?.httpPort) return null;
    const job = await this.client.job(rec.slurmId).catch(() => null);
    if (!job || job.state !== 'RUNNING') return null;
    // The script forwards a free port of the node and says when the job listens (script.ts).
    if (!existsSync(join(this.dir(id), JOB_FILES.listening))) return null;
    const port = await readNumber(join(this.dir(id), JOB_FILES.port));
    const node = (await this.client.nodes()).find((n) => n.name === job.batchHost);
    return node && port ? { host: node.address, port: port.value } : null;
  }

  /** Each node that takes work, per partition, less what work that is not Orrery's holds (nodes.ts). */
  async nodes(): Promise<NodeCapacity[]> {
    const [nodes, jobs] = await Promise.all([this.client.nodes(), this.client.jobs()]);
    return slurmNodes(nodes, jobs, (j) => this.isOurs(j));
  }

  /** An Orrery job: named so by start(), and submitted as the service user (as list() finds them). */
  private isOurs(j: SlurmJob): boolean {
    return j.name.startsWith(JOB_PREFIX) && j.user === this.options.user;
  }

  async capacity(): Promise<PoolCapacity[]> {
    return (await readSlurmCapacity(this.client)).pools.map(poolCapacityOf);
  }

  async close(): Promise<void> {
    clearInterval(this.timer);
    for (const id of this.exitWatches.keys()) this.unwatch(id);
    this.listeners.clear();
  }

  /**
   * Running means the job's command started, not that Slurm allocated its nodes: the batch script
   * still has the sandbox and its network to set up, and a kill then would find no command to
   * signal. The script's `started` marks the moment (script.ts). Its `exit` ends the job as soon
   * as the command has exited, not a second or two later when Slurm has cleaned up: a command that
   * exits at once is never said running (a CLI that saw it running would attach, then replay the
   * log). A command ended by a signal waits for Slurm, which says why (its memory, its time limit).
   */
  private async fromCommand(id: string, seen: ObservedState): Promise<ObservedState> {
    if (seen.state !== 'running' && seen.state !== 'exited') return seen;
    const started = await this.startedAt(id);
    if (seen.state === 'running') {
      return (
        (await this.commandExit(id)) ??
        (started
          ? { state: 'running', startedAt: started }
          : { state: 'starting', reason: JOB_REASONS.containerCreating })
      );
    }
    const { startedAt: _allocated, ...ended } = seen;
    const gang = (await this.record(id))?.workers;
    // A gang's first failed worker, unless Slurm says why (its memory, its time limit).
    const failed = gang && !ended.reason ? await gangExit(this.dir(id), gang) : null;
    const own = failed && failed.code < 128 ? { exitCode: failed.code } : {};
    return {
      ...ended,
      ...own,
      ...(started ? { startedAt: started } : {}),
      ...(failed?.message ? { message: failed.message } : {}),
    };
  }

  /** When the command started: a gang's once every worker's has (its last worker's start). */
  private async startedAt(id: string): Promise<Date | null> {
    const workers = (await this.record(id))?.workers;
    if (workers) return gangStarted(this.dir(id), workers);
    return (await stat(join(this.dir(id), JOB_FILES.started)).catch(() => null))?.mtime ?? null;
  }

  /** The command's own exit, when it exited by itself (not by a signal: Slurm says why then). */
  private async commandExit(id: string): Promise<ObservedState | null> {
    const started = await this.startedAt(id);
    const workers = (await this.record(id))?.workers;
    const exit = started && (await readNumber(join(this.dir(id), JOB_FILES.exit)));
    const gang = exit && workers ? await gangExit(this.dir(id), workers) : null;
    const code = gang?.code ?? exit?.value;
    if (!started || !exit || code === undefined || code >= 128) return null;
    return {
      state: 'exited',
      exitCode: code,
      startedAt: started,
      finishedAt: gang?.at ?? exit.mtime,
      ...(gang?.message ? { message: gang.message } : {}),
    };
  }

  /**
   * The script's `exit` appearing ends the job at once, not at the next poll: a client waiting on
   * the job (the CLI about to attach) reads it over within milliseconds, without a round trip to
   * slurmctld. Writes made on another node raise no event here (a network file system): the poll
   * still notices them.
   */
  private watchExit(id: string) {
    try {
      const w = watch(this.dir(id), { persistent: false }, (_event, name) => {
        if (name !== JOB_FILES.exit) return;
        this.exitSeen.add(id);
        void this.step(id);
      });
      // The directory removed under it: the poll and observe still answer.
      w.on('error', () => this.unwatch(id));
      this.exitWatches.set(id, w);
    } catch {
      // No inotify (its watches used up): the poll alone notices the exit.
    }
  }

  private unwatch(id: string) {
    this.watched.delete(id);
    this.exitSeen.delete(id);
    this.exitWatches.get(id)?.close();
    this.exitWatches.delete(id);
  }

  /** After MinJobAge slurmctld forgets the job: the script's `exit`, else nothing is known. */
  private async exitFile(id: string): Promise<ObservedState> {
    const exit = await readNumber(join(this.dir(id), JOB_FILES.exit));
    if (!exit) return { state: 'missing' };
    const workers = (await this.record(id))?.workers;
    const gang = workers ? await gangExit(this.dir(id), workers) : null;
    return {
      state: 'exited',
      exitCode: gang?.code ?? exit.value,
      finishedAt: gang?.at ?? exit.mtime,
      ...(gang?.message ? { message: gang.message } : {}),
    };
  }

  private async record(id: string): Promise<JobRecord | null> {
    const cached = this.records.get(id);
    if (cached) return cached;
    const text = await readFile(join(this.dir(id), 'job.json'), 'utf8').catch(() => null);
    if (!text) return null;
    const rec = JSON.parse(text) as JobRecord;
    this.records.set(id, rec);
    return rec;
  }

  private async poll() {
    if (this.polling) return;
    this.polling = true;
    try {
      for (const id of this.watched) await this.step(id);
    } finally {
      this.polling = false;
    }
  }

  /** One look at a job: its log stamped, its watch ended once it is over, a change told. */
  private async step(id: string) {
    const before = this.last.get(id)?.state;
    const s = await this.observe(id).catch(() => null);
    if (!s) return;
    const finished = s.state === 'exited' || s.state === 'missing';
    await this.logFile(id).stamp(finished);
    const workers = (await this.record(id))?.workers ?? 0;
    for (let r = 0; r < workers; r++) await this.logFile(id, r).stamp(finished);
    if (finished) this.unwatch(id);
    if (s.state !== before) this.listeners.emit(id);
  }

  private dir(id: string) {
    if (!/^[\w.-]+$/.test(id)) throw new Error(`Bad job id ${id}`);
    return join(this.options.sharedDir, 'jobs', id);
  }

  /** The job's log, or one worker's own (`worker`, its rank) of a gang. */
  private logFile(id: string, worker?: number): LogFile {
    const key = worker === undefined ? id : `${id}/${worker}`;
    let f = this.logFiles.get(key);
    if (!f) {
      f =
        worker === undefined
          ? new LogFile(this.dir(id), 'out.log')
          : new LogFile(join(this.dir(id), workerDir(worker)), WORKER_LOG);
      this.logFiles.set(key, f);
    }
    return f;
  }
}
