import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import type { Readable } from 'node:stream';
import { mkdir, open, readdir, readFile, rm, statfs, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describeMachine } from '../machine.js';
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
import { LogFile } from '../log-file.js';
import { guardStreams } from '../child.js';
import { JobListeners, machineNode, machinePool, usedBy } from '../common.js';
import { poolGpu } from '../gpus.js';
import { stopWrapped, watchStart, wrapperAlive } from './wrapper.js';
import { freePort } from '../../net/ports.js';
import { assignGpus, gpuEnv } from './sandbox.js';
import { Cgroups, type JobCgroup } from './cgroups.js';
import { execInDir } from './exec.js';
import { exitState, readNumber } from './exit.js';
import { prepareHost } from './host.js';
import { claimUid, releaseUid } from './identity.js';
import {
  bareArgv,
  jobRefusals,
  runnableCommand,
  sandboxArgv,
  settle,
  TEE_WRAPPER,
  WRAPPER,
} from './launch.js';
import { listensInside } from './network.js';
import { sampleTree, wrapperPids } from './stats.js';
import { appRuntimeEnv } from './app-runtime.js';
import { DEFAULT_PATH, STATE_FILES, type JobRecord } from './record.js';
import { asOwnUser, homeOf, jobIsolation, ownHome } from './unsandboxed.js';
import type { Relays } from '../relay.js';
import { processRelays, relayAddress } from './relay.js';
import { Gangs, isWorkerId, type WorkerPlan } from './gang.js';
import type { ProcessDriverOptions } from './options.js';

export type { ProcessDriverOptions };

/**
 * Each job a process tree on this machine, under bubblewrap when `/usr/bin/bwrap` exists: its own
 * uid, an allow-listed root, private namespaces with slirp4netns for the network, and cgroup
 * limits (process/*.ts; docs/security.md). State lives in `<dataDir>/jobs/<id>/` (`job.json`,
 * `wrapper.pid`, `pgid`, `child.pid`, `exit`, `oom`, the log), so a new server finds its jobs again.
 */
export class ProcessDriver implements RuntimeDriver {
  readonly name = 'process';
  readonly warning?: string;
  readonly refusal?: string;
  readonly notIsolated?: string;
  readonly gangs?: true | string;
  readonly jobRefusals: Partial<Record<'volumes' | 'http', string>>;
  readonly assignsHttpPort: boolean;
  private readonly root: string;
  private readonly sandboxed: boolean;
  /** Outside the sandbox, each job runs as a uid of its own (a root server allowed to). */
  private readonly ownUidOutside: boolean;
  /** The jobs group when jobs get uids of their own (the server is root and has setpriv). */
  private readonly jobsGid?: number;
  private readonly network: boolean;
  private readonly cgroups: Cgroups;
  private readonly killGraceMs: number;
  private readonly listeners = new JobListeners();
  private readonly logFiles = new Map<string, LogFile>();
  /** Jobs not seen finished yet, with the state last reported. */
  private readonly watched = new Map<string, string>();
  private readonly timer: NodeJS.Timeout;
  private polling = false;
  private readonly machine: ReturnType<typeof describeMachine>;
  private readonly relays?: Relays;
  private readonly gang: Gangs;

  constructor(private readonly opts: ProcessDriverOptions) {
    this.root = join(opts.dataDir, 'jobs');
    const isolation = jobIsolation({
      sandbox: opts.sandbox ?? true,
      setting: opts.unsandboxedJobs,
    });
    ({ sandboxed: this.sandboxed, ownUidOutside: this.ownUidOutside } = isolation);
    ({ refusal: this.refusal, notIsolated: this.notIsolated } = isolation);
    this.killGraceMs = opts.killGraceMs ?? 10_000;
    this.machine = describeMachine(opts.dataDir, opts.gpus);
    this.cgroups = new Cgroups();
    const host = prepareHost(this.sandboxed, this.cgroups);
    this.jobsGid = host.jobsGid;
    this.network = host.network;
    this.jobRefusals = jobRefusals({ sandboxed: this.sandboxed, network: this.network });
    // Sandboxed by a root server, the job's network namespace is its own down to port 80: its
    // port is the one it declared. Otherwise a free one, as low ports are not the job's to bind.
    this.assignsHttpPort = !(this.sandboxed && this.jobsGid !== undefined);
    const warnings = [isolation.refusal, isolation.notIsolated, ...host.warnings].filter(Boolean);
    if (warnings.length > 0) this.warning = warnings.join(' ');
    const address = host.relays ? relayAddress() : null;
    if (address) this.relays = processRelays(address, () => this.liveRecords());
    // A worker joins the job's network namespace (made by rank 0's sandbox) as root: setns into
    // a namespace of another user namespace takes CAP_SYS_ADMIN over it.
    this.gangs =
      this.sandboxed && this.jobsGid === undefined
        ? "Jobs of several workers on the process runtime need the server to run as root (each worker joins the job's network namespace)"
        : true;
    this.gang = new Gangs({
      root: this.root,
      sandboxed: this.sandboxed,
      launch: (spec, plan) => this.launch(spec, plan),
      observeOne: (id) => this.observeOne(id),
      killOne: (id) => this.killOne(id),
      removeOne: (id) => this.removeOne(id),
      execOne: (id, command) => this.execOne(id, { command, stdin: true, tty: false }),
      onChange: (listener) => this.listeners.add(listener),
      access: { gid: this.jobsGid, root: process.getuid?.() === 0 },
    });
    // Stamps logs and notices state changes; jobs a previous server left running included.
    this.timer = setInterval(() => void this.poll(), 250);
    this.timer.unref();
    void this.list().then((ids) => {
      ids.forEach((id) => this.watched.set(id, ''));
      return this.gang.reopen(ids);
    });
    void this.relays?.reopen();
  }

  async start(spec: JobSpec): Promise<void> {
    if ((spec.workers ?? 1) > 1) return this.gang.start(spec);
    await this.launch(spec);
  }

  /** One job, or one worker of a gang (`plan`); `settled` once its sandbox and network are up. */
  private async launch(spec: JobSpec, plan?: WorkerPlan): Promise<{ settled: Promise<void> }> {
    // Jobs queued before a restart without the sandbox fail with the reason rather than start.
    if (this.refusal) throw new Error(this.refusal);
    const dir = this.dir(spec.id);
    // A gang's worker announces its changes as the gang's.
    const notify = plan?.gang ?? spec.id;
    const state = await this.observeOne(spec.id);
    if (state.state === 'running' || state.state === 'starting') {
      throw new Error(`Job ${spec.id} is already running`);
    }
    const command = runnableCommand(spec, { sandboxed: this.sandboxed, network: this.network });
    const tmp = join(dir, 'tmp');
    await mkdir(tmp, { recursive: true });
    await Promise.all(STATE_FILES.map((f) => rm(join(dir, f), { force: true })));
    const gpus = await this.takeGpus(spec);
    const port = spec.httpPort ? await (this.opts.freePort ?? freePort)() : undefined;
    const guestPort = this.assignsHttpPort ? port : spec.httpPort;
    const uid = this.jobsGid !== undefined || this.ownUidOutside ? await claimUid(dir) : undefined;
    const identity =
      uid !== undefined && this.jobsGid !== undefined ? { uid, gid: this.jobsGid } : undefined;
    // Outside the sandbox, a job's own uid gets a home away from the data directory.
    const outside = !this.sandboxed && uid !== undefined ? uid : undefined;
    const home = this.sandboxed
      ? '/tmp'
      : outside !== undefined
        ? await ownHome(this.opts.dataDir, outside).catch((e: unknown) =>
            this.unclaim(spec.id, uid).then(() => Promise.reject(e as Error)),
          )
        : tmp;
    const env: Record<string, string> = {
      PATH: DEFAULT_PATH,
      HOME: home,
      TMPDIR: home,
      ...gpuEnv(gpus),
      ...appRuntimeEnv(this.sandboxed),
      ...spec.env,
      ...(guestPort ? { PORT: String(guestPort) } : {}),
    };
    const relayed = port && spec.project && this.relays;
    const record: JobRecord = {
      image: spec.image,
      limits: spec.limits,
      port,
      guestPort,
      uid,
      gpus,
      project: spec.project,
      relayPort: relayed ? await this.relays!.open(spec.id) : undefined,
      createdAt: Date.now(),
    };
    await writeFile(join(dir, 'job.json'), JSON.stringify(record));
    const limits = {
      cpu: spec.limits.cpu,
      memory: spec.limits.memory,
      pids: this.opts.pidsMax ?? 4096,
    };
    // Independent: the log, the sandbox's host files and the cgroups are made side by side.
    const opening = open(plan?.output ?? join(dir, 'output'), 'a');
    const preparing = [
      this.sandboxed
        ? sandboxArgv({
            dataDir: this.opts.dataDir,
            dir,
            spec,
            command,
            identity,
            gpus,
            network: this.network,
            joinNetOf: plan?.joinNetOf,
            hosts: plan?.peers,
            gangDir: plan?.gangDir,
          })
        : Promise.resolve([
            ...(outside !== undefined ? asOwnUser(outside) : []),
            ...bareArgv(command, spec.workingDir ?? home),
          ]),
      this.cgroups.create(spec.id, limits),
    ] as const;
    let argv: string[];
    let cgroup: JobCgroup;
    try {
      [argv, cgroup] = await Promise.all(preparing);
    } catch (e) {
      await Promise.allSettled(preparing);
      await (await opening.catch(() => null))?.close();
      await this.unclaim(spec.id, uid);
      throw e;
    }
    const out = await opening;
    try {
      const child = spawn(
        '/bin/sh',
        [
          ...(plan ? ['-c', TEE_WRAPPER, 'orrery-tee', join(dir, 'output')] : []),
          ...(plan ? [WRAPPER] : ['-c', WRAPPER, 'orrery-wrapper']),
          ...[cgroup.procs.join(' '), cgroup.oomFile ?? '', ...argv],
        ],
        {
          cwd: dir,
          env,
          detached: true,
          // 3: bwrap's info, 4: its block fd, 5: the network helper's exit socket.
          stdio: ['ignore', out.fd, out.fd, 'pipe', 'pipe', 'pipe'],
        },
      );
      // Their other ends close with the job (early, when bwrap fails): nothing to report.
      guardStreams(child);
      // Without a pid the spawn failed, and says why in 'error'; with one, nothing to wait for.
      if (child.pid === undefined) {
        const why = await new Promise<Error>((resolve) => child.once('error', resolve));
        await this.unclaim(spec.id, uid);
        throw why;
      }
      child.once('exit', () => this.listeners.emit(notify));
      child.unref();
      await writeFile(join(dir, 'wrapper.pid'), String(child.pid));
      this.watched.set(notify, '');
      const [info, block, exit] = [3, 4, 5].map((i) => child.stdio[i] as Readable);
      // Handed to the runtime: the network comes up while the service records the start. A
      // worker joining rank 0's network makes none of its own.
      const network = this.network && plan?.joinNetOf === undefined;
      const fds = { info, block, exit };
      const kill = () => this.killOne(spec.id);
      const settled = settle({
        dir,
        sandboxed: this.sandboxed,
        record,
        identity,
        network,
        fds,
        kill,
        hold: plan?.hold,
      });
      void watchStart(dir, () => this.listeners.emit(notify));
      return { settled };
    } finally {
      await out.close();
    }
  }

  /** Nothing started: what was claimed for the job goes back at once. */
  private async unclaim(id: string, uid: number | undefined) {
    await this.relays?.close(id);
    if (uid !== undefined) await releaseUid(uid, this.dir(id));
    await this.cgroups.remove(id);
  }

  /** The lowest free NVIDIA GPUs for the job, given what the other live jobs hold. */
  private async takeGpus(spec: JobSpec): Promise<number[]> {
    const gpu = spec.limits.gpu;
    if (gpu?.vendor !== 'nvidia' || gpu.count <= 0) return [];
    const held = (await this.liveRecords())
      .filter(([id]) => id !== spec.id)
      .flatMap(([, r]) => r.gpus ?? []);
    const gpus = assignGpus(this.machine.nvidia?.count ?? 0, held, gpu.count);
    if (!gpus) throw new Error(`Not enough free NVIDIA GPUs for ${gpu.count} on this machine`);
    return gpus;
  }

  async kill(id: string): Promise<void> {
    if (this.gang.is(id)) await this.gang.kill(id);
    else await this.killOne(id);
    this.listeners.emit(id);
  }

  private async killOne(id: string): Promise<void> {
    await stopWrapped(this.dir(id), this.killGraceMs, () => this.cgroups.killAll(id));
  }

  async observe(id: string): Promise<ObservedState> {
    return this.gang.is(id) ? this.gang.observe(id) : this.observeOne(id);
  }

  private async observeOne(id: string): Promise<ObservedState> {
    const dir = this.dir(id);
    const record = await this.record(id);
    if (!record) return { state: 'missing' };
    const exited = () => exitState(dir, record.limits.memory);
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
    // A gang's workers are the gang's (gang.ts), not jobs of their own.
    const job = (id: string) => existsSync(join(this.root, id, 'job.json')) && !isWorkerId(id);
    return ids.filter((id) => job(id) || this.gang.is(id));
  }

  async remove(id: string): Promise<void> {
    if (this.gang.is(id)) await this.gang.remove(id);
    else await this.removeOne(id);
    this.watched.delete(id);
  }

  private async removeOne(id: string): Promise<void> {
    if (await this.wrapperAlive(id)) await this.killOne(id);
    const dir = this.dir(id);
    const record = await this.record(id);
    await this.relays?.close(id);
    await this.cgroups.remove(id);
    if (record?.uid !== undefined) {
      await rm(`/run/orrery/net/${record.uid}`, { recursive: true, force: true });
      await rm(homeOf(record.uid), { recursive: true, force: true });
      await releaseUid(record.uid, dir);
    }
    const state = ['job.json', ...STATE_FILES, 'tmp', 'etc', 'net'];
    await Promise.all(state.map((f) => rm(join(dir, f), { recursive: true, force: true })));
  }

  /** A gang's log is its workers' merged; `worker` picks one worker's own. */
  async logs(id: string, options: LogOptions): Promise<Readable> {
    const workers = await this.gang.logged(id);
    const one = options.worker === undefined || !workers.length ? id : workers[options.worker];
    if (!one) throw new Error(`Job ${id} has ${workers.length} workers`);
    return this.logFile(one).readJob(options, () => this.observe(one));
  }

  /** A gang's: all its workers' together, or one's (`worker`). */
  async *stats(id: string, abort: AbortSignal, worker?: number): AsyncIterable<StatsSample> {
    const members =
      worker === undefined ? await this.gang.members(id) : [await this.gang.member(id, worker)];
    const gpus = (await this.record(members[0]))?.limits.gpu?.vendor === 'nvidia';
    yield* sampleTree(
      () => wrapperPids(members.map((m) => this.dir(m))),
      async () => (await this.observe(id)).state === 'running',
      gpus,
      abort,
    );
  }

  /**
   * Ready once the job listens on its port, as its own sockets table says: the forward accepts
   * connections before that, so a connection through it proves nothing.
   */
  async endpoint(job: string): Promise<{ host: string; port: number } | null> {
    // A gang's HTTP port is its rank 0's.
    const id = (await this.gang.members(job))[0];
    const record = await this.record(id);
    if (!record?.port || !record.guestPort) return null;
    if ((await this.observeOne(id)).state !== 'running') return null;
    const dir = this.dir(id);
    const pid = await readNumber(join(dir, this.sandboxed ? 'child.pid' : 'wrapper.pid'));
    if (!pid || !(await listensInside(pid.value, record.guestPort))) return null;
    return { host: '127.0.0.1', port: record.port };
  }

  async reachFromJobs(id: string): Promise<{ host: string; port: number } | null> {
    // Its own port, not the recorded one: a later server may have had to take another.
    const port = this.relays?.portOf((await this.gang.members(id))[0]);
    return port ? { host: this.relays!.address, port } : null;
  }

  /** This machine whole: what Orrery's own jobs hold is the scheduler's to count. */
  async nodes(): Promise<NodeCapacity[]> {
    return [machineNode(this.machine)];
  }

  async capacity(): Promise<PoolCapacity[]> {
    const used = usedBy((await this.liveRecords()).map(([, r]) => r.limits));
    const m = this.machine;
    const disk = await statfs(this.opts.dataDir).catch(() => null);
    return machinePool(m, poolGpu(m.gpus), disk ? disk.bavail * disk.bsize : m.disk, used);
  }

  /**
   * Sandboxed: the command runs inside the job's namespaces and cgroups as its uid (exec.ts).
   * Unsandboxed: in the job's working directory. Both with the job's environment.
   */
  async exec(job: string, options: ExecOptions): Promise<ExecSession> {
    return this.execOne(await this.gang.member(job, options.worker), options);
  }

  private async execOne(id: string, options: ExecOptions): Promise<ExecSession> {
    if ((await this.observeOne(id)).state !== 'running')
      throw new Error(`Job ${id} is not running`);
    const uid = (await this.record(id))?.uid;
    return execInDir(this.dir(id), uid, options, {
      sandboxed: this.sandboxed,
      jobsGid: this.jobsGid,
      cgroupProcs: this.cgroups.procsFiles(id),
    });
  }

  async close(): Promise<void> {
    clearInterval(this.timer);
    this.listeners.clear();
    await this.relays?.closeAll();
    await this.gang.close();
  }

  private async poll() {
    if (this.polling) return;
    this.polling = true;
    try {
      for (const [id, last] of this.watched) {
        const s = await this.observe(id);
        const finished = s.state === 'exited' || s.state === 'missing';
        // A gang's workers each have a log of their own besides the merged one.
        await this.gang.poll(id, finished, (w) => this.logFile(w).stamp(finished));
        await this.logFile(id).stamp(finished);
        if (finished) {
          this.watched.delete(id);
          // Not awaited: the firewall's update must not hold up the other jobs' states.
          void this.relays?.close(id);
        }
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

  /** The records of the jobs (a gang's workers each) that hold resources now. */
  private async liveRecords(): Promise<[string, JobRecord][]> {
    const live: [string, JobRecord][] = [];
    const ids = await Promise.all((await this.list()).map((j) => this.gang.members(j)));
    for (const id of ids.flat()) {
      const s = (await this.observeOne(id)).state;
      const record = s === 'running' || s === 'starting' ? await this.record(id) : null;
      if (record) live.push([id, record]);
    }
    return live;
  }

  private async record(id: string): Promise<JobRecord | null> {
    const text = await readFile(join(this.dir(id), 'job.json'), 'utf8').catch(() => null);
    return text ? (JSON.parse(text) as JobRecord) : null;
  }

  private wrapperAlive(id: string): Promise<boolean> {
    return wrapperAlive(this.dir(id));
  }
}
