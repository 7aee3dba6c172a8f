import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import type { Readable } from 'node:stream';
import { mkdir, open, readdir, readFile, rm, statfs, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
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
import { poolGpu, type MachineGpus } from '../gpus.js';
import { groupAlive, groupTakesTerm, readStat, startedAt } from './proc.js';
import { freePort } from '../../net/ports.js';
import { assignGpus, gpuEnv } from './sandbox.js';
import { Cgroups, type JobCgroup } from './cgroups.js';
import { execIn } from './exec.js';
import { exitState, readNumber, signal } from './exit.js';
import { prepareHost } from './host.js';
import { claimUid, releaseUid, type JobIdentity } from './identity.js';
import { bareArgv, bringUp, jobRefusals, runnableCommand, sandboxArgv, WRAPPER } from './launch.js';
import { listensInside } from './network.js';
import { sampleTree } from './stats.js';
import { appRuntimeEnv } from './app-runtime.js';
import { DEFAULT_PATH, STATE_FILES, type JobRecord } from './record.js';
import { asOwnUser, homeOf, jobIsolation, ownHome } from './unsandboxed.js';
import type { UnsandboxedJobs } from './unsandboxed.js';
import type { Relays } from '../relay.js';
import { processRelays, relayAddress } from './relay.js';

export interface ProcessDriverOptions {
  dataDir: string;
  /** Between SIGTERM and SIGKILL; default 10 s. */
  killGraceMs?: number;
  /** false runs jobs without bubblewrap even when it is installed (tests of that path). */
  sandbox?: boolean;
  /** pids.max of each job's cgroup; default 4096 (threads count too). */
  pidsMax?: number;
  /**
   * ORRERY_UNSANDBOXED_JOBS: whether jobs run without the full sandbox (unsandboxed.ts); default
   * `refuse`.
   */
  unsandboxedJobs?: UnsandboxedJobs;
  /** ORRERY_GPU_DESCRIPTION: this machine's GPUs as stated, in place of the probe (gpus.ts). */
  gpus?: MachineGpus;
}

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
    // Stamps logs and notices state changes; jobs a previous server left running included.
    this.timer = setInterval(() => void this.poll(), 250);
    this.timer.unref();
    void this.list().then((ids) => ids.forEach((id) => this.watched.set(id, '')));
    void this.relays?.reopen();
  }

  async start(spec: JobSpec): Promise<void> {
    // Jobs queued before a restart without the sandbox fail with the reason rather than start.
    if (this.refusal) throw new Error(this.refusal);
    const dir = this.dir(spec.id);
    const state = await this.observe(spec.id);
    if (state.state === 'running' || state.state === 'starting') {
      throw new Error(`Job ${spec.id} is already running`);
    }
    const command = runnableCommand(spec, { sandboxed: this.sandboxed, network: this.network });
    const tmp = join(dir, 'tmp');
    await mkdir(tmp, { recursive: true });
    await Promise.all(STATE_FILES.map((f) => rm(join(dir, f), { force: true })));
    const gpus = await this.takeGpus(spec);
    const port = spec.httpPort ? await freePort() : undefined;
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
    const opening = open(join(dir, 'output'), 'a');
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
        ['-c', WRAPPER, 'orrery-wrapper', cgroup.procs.join(' '), cgroup.oomFile ?? '', ...argv],
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
      child.once('exit', () => this.listeners.emit(spec.id));
      child.unref();
      await writeFile(join(dir, 'wrapper.pid'), String(child.pid));
      this.watched.set(spec.id, '');
      const [info, block, exit] = [3, 4, 5].map((i) => child.stdio[i] as Readable);
      // Handed to the runtime: the network comes up while the service records the start.
      void this.settle(spec, record, identity, { info, block, exit });
    } finally {
      await out.close();
    }
    void this.watchStart(spec.id);
  }

  /** Nothing started: what was claimed for the job goes back at once. */
  private async unclaim(id: string, uid: number | undefined) {
    await this.relays?.close(id);
    if (uid !== undefined) await releaseUid(uid, this.dir(id));
    await this.cgroups.remove(id);
  }

  /**
   * The job's command waits on bwrap's block fd until its network is up. A job whose network
   * cannot be made is killed, and `failure` says why (observe reports it).
   */
  private async settle(
    spec: JobSpec,
    record: JobRecord,
    identity: JobIdentity | undefined,
    fds: { info: Readable; block: Readable; exit: Readable },
  ) {
    try {
      if (this.sandboxed) {
        const forward =
          record.port && record.guestPort
            ? { hostPort: record.port, guestPort: record.guestPort }
            : undefined;
        await bringUp({ dir: this.dir(spec.id), identity, network: this.network, forward, ...fds });
      }
    } catch (e) {
      const failure = join(this.dir(spec.id), 'failure');
      // Best effort: the file only carries the message; an early failure leaves nothing to kill.
      await writeFile(failure, (e as Error).message).catch(() => undefined);
      await this.kill(spec.id).catch(() => undefined);
    } finally {
      // Without a pid (bwrap failed), or after the network is up: the command starts now.
      (fds.block as unknown as NodeJS.WritableStream).end('1');
      fds.info.destroy();
      fds.exit.destroy();
    }
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
    // Right after the start (only then) the group's only processes ignore SIGTERM (WRAPPER) and the
    // command would miss it: wait for the command (one that ignores SIGTERM itself gets it anyway).
    const settling = () => Date.now() - pgid!.mtime.getTime() < 1000;
    for (let i = 0; i < 50 && settling() && !(await groupTakesTerm(pgid.value)); i++)
      await sleep(20);
    signal(-pgid.value, 'SIGTERM');
    const deadline = Date.now() + this.killGraceMs;
    while (Date.now() < deadline && (await groupAlive(pgid.value))) await sleep(50);
    if (await groupAlive(pgid.value)) signal(-pgid.value, 'SIGKILL');
    // And whatever left the group (setsid) but not the job's cgroups.
    await this.cgroups.killAll(id);
    // The wrapper writes the exit code right after its child ends.
    for (let i = 0; i < 100 && (await this.wrapperAlive(id)); i++) await sleep(20);
    this.listeners.emit(id);
  }

  async observe(id: string): Promise<ObservedState> {
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
    return ids.filter((id) => existsSync(join(this.root, id, 'job.json')));
  }

  async remove(id: string): Promise<void> {
    if (await this.wrapperAlive(id)) await this.kill(id);
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
    this.watched.delete(id);
  }

  async logs(id: string, options: LogOptions): Promise<Readable> {
    return this.logFile(id).readJob(options, () => this.observe(id));
  }

  async *stats(id: string, abort: AbortSignal): AsyncIterable<StatsSample> {
    const gpus = (await this.record(id))?.limits.gpu?.vendor === 'nvidia';
    yield* sampleTree(
      async () => (await readNumber(join(this.dir(id), 'wrapper.pid')))?.value ?? null,
      async () => (await this.observe(id)).state === 'running',
      gpus,
      abort,
    );
  }

  /**
   * Ready once the job listens on its port, as its own sockets table says: the forward accepts
   * connections before that, so a connection through it proves nothing.
   */
  async endpoint(id: string): Promise<{ host: string; port: number } | null> {
    const record = await this.record(id);
    if (!record?.port || !record.guestPort) return null;
    if ((await this.observe(id)).state !== 'running') return null;
    const dir = this.dir(id);
    const pid = await readNumber(join(dir, this.sandboxed ? 'child.pid' : 'wrapper.pid'));
    if (!pid || !(await listensInside(pid.value, record.guestPort))) return null;
    return { host: '127.0.0.1', port: record.port };
  }

  async reachFromJobs(id: string): Promise<{ host: string; port: number } | null> {
    // Its own port, not the recorded one: a later server may have had to take another.
    const port = this.relays?.portOf(id);
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
  async exec(id: string, options: ExecOptions): Promise<ExecSession> {
    if ((await this.observe(id)).state !== 'running') throw new Error(`Job ${id} is not running`);
    const pgid = await readNumber(join(this.dir(id), 'pgid'));
    const uid = (await this.record(id))?.uid;
    return execIn(pgid?.value, options.command, {
      sandboxed: this.sandboxed,
      identity:
        uid !== undefined && this.jobsGid !== undefined ? { uid, gid: this.jobsGid } : undefined,
      ownUid: !this.sandboxed ? uid : undefined,
      cgroupProcs: this.cgroups.procsFiles(id),
      stdin: options.stdin,
    });
  }

  async close(): Promise<void> {
    clearInterval(this.timer);
    this.listeners.clear();
    await this.relays?.closeAll();
  }

  private async poll() {
    if (this.polling) return;
    this.polling = true;
    try {
      for (const [id, last] of this.watched) {
        const s = await this.observe(id);
        const finished = s.state === 'exited' || s.state === 'missing';
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

  /** The records of the jobs that hold resources now (starting or running). */
  private async liveRecords(): Promise<[string, JobRecord][]> {
    const live: [string, JobRecord][] = [];
    for (const id of await this.list()) {
      const s = (await this.observe(id)).state;
      const record = s === 'running' || s === 'starting' ? await this.record(id) : null;
      if (record) live.push([id, record]);
    }
    return live;
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
