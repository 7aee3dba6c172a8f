import { mkdir, readFile, statfs, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import type Docker from 'dockerode';
import { machineGpus, type MachineGpus } from '../gpus.js';
import { JobListeners, machineNode, machinePool, usedBy } from '../common.js';
import { ndjson } from './streams.js';
import { commitAndPush, containerExec, saveFailure } from './exec.js';
import { removeGangNetwork, startGang, workerContainers } from './gang.js';
import { gangBroken, gangState, mergedLog, summedStats, workerKeys } from '../gang.js';
import { containerSpec } from './container-spec.js';
import { LABEL, NAME_PREFIX, dockerClient, ensureNetwork, ignore } from './engine.js';
import { isolateNetwork } from './isolation.js';
import { DockerRelays, HTTP_PORT_LABEL } from './relay.js';
import { checkedMounts } from './mounts.js';
import { engineSample, type EngineStats } from './stats.js';
import type {
  ExecOptions,
  ExecSession,
  JobSpec,
  LogOptions,
  ObservedState,
  NodeCapacity,
  PoolCapacity,
  RuntimeDriver,
  SaveProgress,
  StatsSample,
} from '../driver.js';
import { LogFile } from '../log-file.js';
import { ContainerLogs } from './logs.js';
import { listening } from '../../net/ports.js';
import { gpuFields, sampleGpu } from '../gpu-stats.js';

export interface DockerDriverOptions {
  dataDir: string;
  /** unix:///path, tcp://host:port or http(s)://host:port; unset: /var/run/docker.sock. */
  dockerHost?: string;
  /** The network containers join; `host` shares the host's (the job's port is its endpoint). */
  network?: string;
  /** Between SIGTERM and SIGKILL; default 10 s. */
  killGraceMs?: number;
  /** ORRERY_GPU_DESCRIPTION: the host's GPUs as stated, in place of the probe (gpus.ts). */
  gpus?: MachineGpus;
}

/**
 * Jobs as containers `orrery-job-<id>` labelled `orrery.job=<id>`, so a new server finds them
 * again. Logs come from the engine while the container exists, and are copied to the job's log
 * file (log-file.ts) when it ends, so they outlive `remove`.
 */
export class DockerDriver implements RuntimeDriver {
  readonly name = 'docker';
  /** Jobs of several workers: a container each, on a network of the job's own (gang.ts). */
  readonly gangs = true as const;
  private readonly listeners = new JobListeners();
  /** Jobs whose image is being pulled, or whose container could not be made: (id → outcome). */
  private readonly pending = new Map<string, ObservedState>();
  private events?: NodeJS.ReadableStream;
  /** Gangs whose containers are being made, and gangs whose workers are being stopped. */
  private readonly starting = new Set<string>();
  private readonly logFiles: ContainerLogs;
  private readonly stopping = new Set<string>();

  private constructor(
    private readonly docker: Docker,
    private readonly opts: DockerDriverOptions,
    private readonly network: string,
    private readonly machine: {
      /** The engine host's name (`docker info`). */
      name: string;
      cpu: number;
      memory: number;
      rootDir: string;
      gpus: MachineGpus;
    },
    /** Said when the network's isolation (docker/isolation.ts) cannot be enforced from here. */
    readonly warning?: string,
    /** How the project's jobs reach each other's ports (docker/relay.ts), on an isolated bridge. */
    private readonly relays?: DockerRelays,
    /** Whether the network's rules are in force: a gang's own network gets its rules too. */
    private readonly isolated = false,
  ) {
    this.logFiles = new ContainerLogs(
      opts.dataDir,
      (id) => this.container(id),
      (id) => this.inspect(id),
    );
  }

  /** Connects, finds (or makes) the network, and starts following the engine's events. */
  static async connect(opts: DockerDriverOptions): Promise<DockerDriver> {
    const docker = dockerClient(opts.dockerHost);
    const info = await docker.info();
    const network = await ensureNetwork(docker, opts.network);
    const isolation = await isolateNetwork(docker, network);
    const bridge = 'isolated' in isolation ? isolation.isolated : undefined;
    const gateway = bridge?.gateway;
    const driver = new DockerDriver(
      docker,
      opts,
      network,
      {
        name: info.Name || hostname(),
        cpu: info.NCPU,
        memory: info.MemTotal,
        rootDir: info.DockerRootDir,
        // The engine reports no GPUs; its NVIDIA runtime passes this machine's (dockerd runs
        // here), and no other vendor's: start() refuses those.
        gpus: { nvidia: machineGpus(opts.gpus).nvidia },
      },
      'warning' in isolation ? isolation.warning : undefined,
      gateway ? new DockerRelays(docker, network, { ...bridge, gateway }, opts.dataDir) : undefined,
      'isolated' in isolation,
    );
    await driver.followEvents();
    await driver.relays?.reopen();
    return driver;
  }

  async start(spec: JobSpec): Promise<void> {
    const existing = await this.inspect(spec.id);
    if (existing?.State.Running) throw new Error(`Job ${spec.id} is already running`);
    if (existing) await this.remove(spec.id);
    if (spec.limits.gpu && spec.limits.gpu.vendor !== 'nvidia') {
      throw new Error(`The docker runtime passes NVIDIA GPUs only, not ${spec.limits.gpu.vendor}`);
    }
    if (spec.privileged) {
      throw new Error(
        'Privileged jobs are refused on the docker runtime: a privileged container is root on the host, with its devices, file systems and Docker socket',
      );
    }
    const mounts = await checkedMounts(this.opts.dataDir, spec.mounts);
    if (spec.httpPort && spec.project) await this.reachFromJobs(spec.id);
    const workers = spec.workers ?? 1;
    // Kept after the job is removed, for its workers' logs.
    if (workers > 1) await this.writeWorkers(spec.id, workers);
    const create = async () => {
      const { Config } = await this.docker.getImage(spec.image).inspect();
      if (workers > 1) {
        const single = (w: JobSpec) => containerSpec({ ...w, mounts }, Config, this.network);
        const containers = await workerContainers(spec, this.network === 'host', single);
        const opts = { id: spec.id, network: this.network, isolated: this.isolated };
        this.starting.add(spec.id);
        return startGang(this.docker, containers, opts).finally(() =>
          this.starting.delete(spec.id),
        );
      }
      const container = await this.docker.createContainer(
        containerSpec({ ...spec, mounts }, Config, this.network),
      );
      // A container that cannot start (no such command, a bad mount) is not left behind.
      await container.start().catch(async (e: Error) => {
        // The start's error is the one the job reports; a failed clean-up is retried by remove.
        await container.remove({ force: true }).catch(() => undefined);
        throw e;
      });
    };
    const present = await this.docker
      .getImage(spec.image)
      .inspect()
      .then(
        () => true,
        () => false,
      );
    // With the image at hand a failure is the caller's to report; a pull may take minutes, so
    // then the job stays `starting` (Pulling) and a failure ends it, told in its log.
    if (present) return create();
    const pulling: ObservedState = { state: 'starting', reason: 'Pulling' };
    this.pending.set(spec.id, pulling);
    void (async () => {
      let reason = 'ErrImagePull';
      try {
        await this.pull(spec.image, spec.registryAuth);
        // Killed or removed meanwhile.
        if (this.pending.get(spec.id) !== pulling) return;
        reason = 'ContainerCannotRun';
        await create();
        this.pending.delete(spec.id);
      } catch (e) {
        const finishedAt = new Date();
        await new LogFile(this.logFiles.dir(spec.id))
          .append([{ time: finishedAt.getTime(), text: `${reason}: ${(e as Error).message}\n` }])
          // The job ends with its reason either way; the log line is a courtesy.
          .catch(() => undefined);
        this.pending.set(spec.id, { state: 'exited', exitCode: 125, finishedAt, reason });
        this.listeners.emit(spec.id);
      }
    })();
  }

  private async pull(image: string, auth?: JobSpec['registryAuth']) {
    const body = await this.docker.pull(image, auth ? { authconfig: auth } : {});
    for await (const line of ndjson<SaveProgress>(body)) {
      if (line.error) throw new Error(`pull of ${image} failed: ${line.error}`);
    }
  }

  /** Every worker's container stopped, together. */
  async kill(id: string): Promise<void> {
    await this.relays?.close(id);
    this.pending.delete(id);
    await Promise.all((await this.keysOf(id)).map((k) => this.killOne(k)));
  }

  private async killOne(id: string): Promise<void> {
    const c = await this.inspect(id);
    if (!c) return;
    if (c.State.Running) {
      await this.container(id)
        .stop({ t: Math.ceil((this.opts.killGraceMs ?? 10_000) / 1000) })
        .catch(ignore(304, 404));
    }
    await this.logFiles.archive(id);
  }

  /** A gang's is its workers' (gang.ts `gangState`); one that broke has the others stopped. */
  async observe(id: string): Promise<ObservedState> {
    const keys = await this.keysOf(id);
    if (keys.length === 1) return this.observeOne(id);
    const states = await Promise.all(keys.map((k) => this.observeOne(k)));
    if (states.every((s) => s.state === 'missing')) return this.pending.get(id) ?? states[0];
    // While the containers are being made, one not made yet is not lost.
    if (!this.starting.has(id) && gangBroken(states)) void this.stopBroken(id);
    return gangState(states);
  }

  /** Stops a gang's workers once one has failed: a gang is only useful whole. */
  private async stopBroken(id: string) {
    if (this.stopping.has(id)) return;
    this.stopping.add(id);
    try {
      await this.kill(id);
    } catch {
      // The next observation tries again.
    } finally {
      this.stopping.delete(id);
    }
  }

  private async observeOne(id: string): Promise<ObservedState> {
    const c = await this.inspect(id);
    if (!c) return this.pending.get(id) ?? { state: 'missing' };
    const s = c.State;
    if (s.Status === 'created') return { state: 'starting', reason: 'ContainerCreating' };
    if (s.Running || s.Restarting) return { state: 'running', startedAt: new Date(s.StartedAt) };
    return {
      state: 'exited',
      exitCode: s.ExitCode,
      finishedAt: new Date(s.FinishedAt),
      startedAt: new Date(s.StartedAt),
      ...(s.OOMKilled ? { reason: 'OOMKilled' } : {}),
    };
  }

  onChange(listener: (id: string) => void): () => void {
    return this.listeners.add(listener);
  }

  async list(): Promise<string[]> {
    const cs = await this.docker.listContainers({ all: true, filters: { label: [LABEL] } });
    return [...new Set([...cs.map((c) => c.Labels[LABEL]), ...this.pending.keys()])];
  }

  /** Every worker's container (its log archived first), then a gang's network. */
  async remove(id: string): Promise<void> {
    await this.relays?.close(id);
    this.pending.delete(id);
    const keys = await this.keysOf(id);
    for (const key of keys) {
      if (!(await this.inspect(key))) continue;
      await this.logFiles.archive(key);
      await this.container(key).remove({ force: true }).catch(ignore(404));
    }
    if (keys.length > 1) await removeGangNetwork(this.docker, id);
  }

  /** A gang's log is its workers' merged (gang.ts `mergedLog`); `worker` picks one's own. */
  async logs(id: string, options: LogOptions): Promise<Readable> {
    const keys = await this.keysOf(id);
    if (keys.length === 1) return this.logFiles.read(id, options);
    if (options.worker !== undefined)
      return this.logFiles.read(await this.workerOf(id, options.worker), options);
    const opened = keys.map(
      (k) => (timestamps: boolean) => this.logFiles.read(k, { ...options, timestamps }),
    );
    return mergedLog(opened, options);
  }

  /** A gang's: its workers' added up, or one's (`worker`). */
  stats(id: string, abort: AbortSignal, worker?: number): AsyncIterable<StatsSample> {
    return async function* (this: DockerDriver) {
      const keys = await this.keysOf(id);
      if (keys.length === 1) yield* this.statsOne(id, abort);
      else if (worker !== undefined) yield* this.statsOne(await this.workerOf(id, worker), abort);
      else
        yield* summedStats(
          keys.map((k) => (signal: AbortSignal) => this.statsOne(k, signal)),
          abort,
        );
    }.call(this);
  }

  private async *statsOne(id: string, abort: AbortSignal): AsyncIterable<StatsSample> {
    const gpus = ((await this.inspect(id))?.HostConfig.DeviceRequests ?? []).length > 0;
    // dockerode passes `abortSignal` on to the request; its types leave it out.
    const body = (await this.container(id)
      .stats({ stream: true, abortSignal: abort } as { stream: true })
      .catch(ignore(404))) as NodeJS.ReadableStream | undefined;
    if (!body) return;
    try {
      for await (const s of ndjson<EngineStats>(body)) {
        if (abort.aborted) return;
        const sample = engineSample(s, this.machine.cpu);
        if (!sample) return; // the container stopped
        // The engine reports no GPU load: nvidia-smi does, for the container's host processes.
        const gpu = gpus ? await sampleGpu(await this.hostPids(id)) : null;
        yield { ...sample, ...gpuFields(gpu) };
      }
    } catch (e) {
      if (!abort.aborted) throw e;
    } finally {
      (body as Readable).destroy?.();
    }
  }

  /** The container's processes as the host numbers them (what nvidia-smi lists). */
  private async hostPids(id: string): Promise<number[]> {
    // A container that ended meanwhile has no processes.
    const top = (await this.container(id)
      .top({ ps_args: '-o pid' })
      .catch(() => null)) as { Processes?: string[][] } | null;
    return (top?.Processes ?? []).map((p) => Number(p[0])).filter((n) => n > 0);
  }

  async endpoint(id: string): Promise<{ host: string; port: number } | null> {
    const c = await this.inspect(id);
    const port = Number(c?.Config.Labels?.[HTTP_PORT_LABEL]);
    if (!c?.State.Running || !port) return null;
    if (this.network === 'host')
      return (await listening(port)) ? { host: '127.0.0.1', port } : null;
    const published = Number(c.NetworkSettings.Ports?.[`${port}/tcp`]?.[0]?.HostPort);
    // The engine's proxy accepts on the published port before the job listens: ask the job.
    const ip = c.NetworkSettings.Networks?.[this.network]?.IPAddress;
    if (!published || !ip || !(await listening(port, 500, ip))) return null;
    return { host: '127.0.0.1', port: published };
  }

  /**
   * The job's relay, opened here if need be: also before the job starts, since the apps service
   * hands a sibling's address to the jobs it creates next (the relay waits for the container).
   */
  async reachFromJobs(id: string): Promise<{ host: string; port: number } | null> {
    return (await this.relays?.reach(id, () => this.inspect(id))) ?? null;
  }

  /** The engine's host whole: what Orrery's own containers hold is the scheduler's to count. */
  async nodes(): Promise<NodeCapacity[]> {
    return [{ ...machineNode(this.machine), name: this.machine.name }];
  }

  async capacity(): Promise<PoolCapacity[]> {
    const running = await this.docker.listContainers({ filters: { label: [LABEL] } });
    const used = usedBy(
      running.map((c) => ({
        cpu: Number(c.Labels['orrery.cpu']) || 0,
        memory: Number(c.Labels['orrery.memory']) || 0,
        shm: false,
      })),
    );
    const m = this.machine;
    const disk =
      (await statfs(m.rootDir).catch(() => null)) ??
      (await statfs(this.opts.dataDir).catch(() => null));
    const nvidia = m.gpus.nvidia;
    return machinePool(
      m,
      nvidia ? { vendor: 'nvidia', ...nvidia } : undefined,
      disk ? disk.bavail * disk.bsize : 0,
      used,
    );
  }

  /** In the container of the worker asked for (rank 0's without one). */
  async exec(id: string, options: ExecOptions): Promise<ExecSession> {
    return containerExec(this.container(await this.workerOf(id, options.worker)), options);
  }

  /** Commit then push (exec.ts `commitAndPush`). */
  async *save(
    id: string,
    image: string,
    auth: { username: string; password: string },
  ): AsyncIterable<SaveProgress> {
    const c = await this.inspect(id);
    if (!c) {
      yield saveFailure(`Job ${id} has no container`);
      return;
    }
    yield* commitAndPush(this.docker, this.container(id), c.Id, image, auth);
  }

  async close(): Promise<void> {
    (this.events as unknown as { destroy?(): void } | undefined)?.destroy?.();
    this.listeners.clear();
    await this.relays?.closeAll();
    await this.logFiles.settled();
  }

  /** Notifies listeners of the job's container events; copies the log when it dies. */
  private async followEvents() {
    this.events = await this.docker.getEvents({
      filters: { type: ['container'], label: [LABEL], event: ['start', 'die', 'oom', 'destroy'] },
    });
    void (async () => {
      try {
        for await (const e of ndjson<EngineEvent>(this.events!)) {
          const id = e.Actor?.Attributes?.[LABEL];
          if (!id) continue;
          // A gang's worker: its container's own name (the job's label is the gang's id).
          const key = e.Actor?.Attributes?.name?.slice(NAME_PREFIX.length) || id;
          if (e.Action === 'die') {
            if (key === id) await this.relays?.close(id);
            // Not archived now, the log is archived by remove (or read from the engine).
            await this.logFiles.archive(key).catch(() => undefined);
            // A worker that failed stops the others.
            if (key !== id) await this.observe(id).catch(() => undefined);
          }
          this.listeners.emit(id);
        }
      } catch {
        // The stream ends with close(), or with the engine: the service also polls `observe`.
      }
    })();
  }

  /** The containers of the job: its workers' (a gang's record says how many), or its own. */
  private async keysOf(id: string): Promise<string[]> {
    const n = Number(await readFile(join(this.logFiles.dir(id), 'workers'), 'utf8').catch(() => 1));
    return n > 1 ? workerKeys(id, n) : [id];
  }

  /** The container of worker `rank` (from 0; absent: 0) of the job. */
  private async workerOf(id: string, rank = 0): Promise<string> {
    const keys = await this.keysOf(id);
    const key = keys[rank];
    if (!key) throw new Error(`Job ${id} has ${keys.length} worker(s), numbered from 0`);
    return key;
  }

  private async writeWorkers(id: string, workers: number) {
    await mkdir(this.logFiles.dir(id), { recursive: true });
    await writeFile(join(this.logFiles.dir(id), 'workers'), String(workers));
  }

  private container(id: string) {
    return this.docker.getContainer(NAME_PREFIX + id);
  }

  private async inspect(id: string): Promise<Docker.ContainerInspectInfo | null> {
    return (await this.container(id).inspect().catch(ignore(404))) ?? null;
  }
}

interface EngineEvent {
  Action: string;
  Actor?: { Attributes?: Record<string, string> };
}
