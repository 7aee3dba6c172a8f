import { mkdir, readFile, statfs, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import type Docker from 'dockerode';
import { machineGpus, type MachineGpus } from '../gpus.js';
import { JobListeners, machineNode, machinePool, usedBy } from '../common.js';
import { containerLog, demuxStream, logEntries, ndjson } from './streams.js';
import { containerSpec } from './container-spec.js';
import { LABEL, NAME_PREFIX, dockerClient, ensureNetwork, ignore, parseImage } from './engine.js';
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
  private readonly listeners = new JobListeners();
  /** Jobs whose image is being pulled, or whose container could not be made: (id → outcome). */
  private readonly pending = new Map<string, ObservedState>();
  private events?: NodeJS.ReadableStream;
  private readonly archiving = new Map<string, Promise<void>>();

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
  ) {}

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
    const create = async () => {
      const { Config } = await this.docker.getImage(spec.image).inspect();
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
        await new LogFile(this.jobDir(spec.id))
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

  async kill(id: string): Promise<void> {
    await this.relays?.close(id);
    const c = await this.inspect(id);
    this.pending.delete(id);
    if (!c) return;
    if (c.State.Running) {
      await this.container(id)
        .stop({ t: Math.ceil((this.opts.killGraceMs ?? 10_000) / 1000) })
        .catch(ignore(304, 404));
    }
    await this.archive(id);
  }

  async observe(id: string): Promise<ObservedState> {
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

  async remove(id: string): Promise<void> {
    await this.relays?.close(id);
    this.pending.delete(id);
    if (!(await this.inspect(id))) return;
    await this.archive(id);
    await this.container(id).remove({ force: true }).catch(ignore(404));
  }

  async logs(id: string, options: LogOptions): Promise<Readable> {
    const file = new LogFile(this.jobDir(id));
    // Mid-archive, the file already holds the container's log that the marker does not yet name:
    // read both and the log shows twice.
    // Only its end is awaited here: a failed archive is the engine's log, read below instead.
    await this.archiving.get(id)?.catch(() => undefined);
    const c = await this.inspect(id);
    if (!c || (await this.archived(id)) === c.Id) return file.read(options);
    const query = {
      stdout: true,
      stderr: true,
      timestamps: options.timestamps,
      since: options.since ? options.since.getTime() / 1000 : 0,
    };
    const container = this.container(id);
    const body = options.follow
      ? await container.logs({ ...query, follow: true })
      : await container.logs({ ...query, follow: false });
    // Earlier runs of the job (restarts) were archived when their container went.
    return Readable.from(
      (async function* () {
        yield* file.read({ ...options, follow: false });
        yield* containerLog(body, c.Config.Tty);
      })(),
    );
  }

  async *stats(id: string, abort: AbortSignal): AsyncIterable<StatsSample> {
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

  async exec(id: string, options: ExecOptions): Promise<ExecSession> {
    const exec = await this.container(id).exec({
      Cmd: options.command,
      AttachStdin: options.stdin,
      AttachStdout: true,
      AttachStderr: true,
      Tty: options.tty,
    });
    const duplex = (await exec.start({
      hijack: true,
      stdin: options.stdin,
      Tty: options.tty,
    })) as NodeJS.ReadWriteStream;
    const stdout = new PassThrough();
    const stderr = new PassThrough();
    const ended = new Promise<void>((resolve) => {
      if (options.tty) {
        duplex.pipe(stdout);
        duplex.on('end', resolve);
        duplex.on('close', resolve);
      } else {
        demuxStream(
          duplex,
          (type, payload) => (type === 2 ? stderr : stdout).write(payload),
          () => {
            stdout.end();
            stderr.end();
            resolve();
          },
        );
      }
    });
    return {
      stdin: options.stdin ? duplex : undefined,
      stdout,
      stderr: options.tty ? undefined : stderr,
      resize: options.tty
        ? // A resize after the exec ended has nothing to resize.
          (rows, cols) => void exec.resize({ h: rows, w: cols }).catch(() => undefined)
        : undefined,
      exitCode: ended.then(async () => (await exec.inspect()).ExitCode ?? 0),
    };
  }

  /**
   * Commit then push: CommitStarted, CommitFinished, then the engine's push
   * progress as it comes, ending with the `aux` digest; failures as `error` objects.
   */
  async *save(
    id: string,
    image: string,
    auth: { username: string; password: string },
  ): AsyncIterable<SaveProgress> {
    const c = await this.inspect(id);
    if (!c) {
      yield failure(`Job ${id} has no container`);
      return;
    }
    const { repo, tag, registry } = parseImage(image);
    yield { status: 'CommitStarted', details: { container: c.Id, image } };
    try {
      await this.container(id).commit({ repo, tag });
    } catch (e) {
      yield failure(`Commit failed: ${(e as Error).message}`);
      return;
    }
    yield { status: 'CommitFinished' };
    try {
      const body = await this.docker.getImage(`${repo}:${tag}`).push({
        authconfig: { ...auth, serveraddress: registry },
      });
      yield* ndjson<SaveProgress>(body);
    } catch (e) {
      yield failure(`Push failed: ${(e as Error).message}`);
    }
  }

  async close(): Promise<void> {
    (this.events as unknown as { destroy?(): void } | undefined)?.destroy?.();
    this.listeners.clear();
    await this.relays?.closeAll();
    await Promise.all(this.archiving.values());
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
          if (e.Action === 'die') {
            await this.relays?.close(id);
            // Not archived now, the log is archived by remove (or read from the engine).
            await this.archive(id).catch(() => undefined);
          }
          this.listeners.emit(id);
        }
      } catch {
        // The stream ends with close(), or with the engine: the service also polls `observe`.
      }
    })();
  }

  /**
   * Copies the stopped container's log to the job's log file once (the file's `container` names
   * the container it holds, a restarted job's next container appends).
   */
  private archive(id: string): Promise<void> {
    const running = this.archiving.get(id);
    if (running) return running;
    const task = (async () => {
      const c = await this.inspect(id);
      if (!c || c.State.Running || (await this.archived(id)) === c.Id) return;
      // Followed, the log of a stopped container streams and ends: a large log never sits in
      // memory whole; it is appended in batches of about a megabyte.
      const body = (await this.container(id).logs({
        stdout: true,
        stderr: true,
        timestamps: true,
        follow: true,
      })) as NodeJS.ReadableStream;
      const dir = this.jobDir(id);
      await mkdir(dir, { recursive: true });
      const file = new LogFile(dir);
      let batch: Array<{ time: number; text: string }> = [];
      let size = 0;
      // Each entry (a frame; a line of a TTY's output) starts with its RFC 3339 time and a space.
      for await (const entry of logEntries(body, c.Config.Tty)) {
        const space = entry.indexOf(' ');
        batch.push({ time: Date.parse(entry.slice(0, space)) || 0, text: entry.slice(space + 1) });
        size += entry.length;
        if (size > 1 << 20) {
          await file.append(batch);
          batch = [];
          size = 0;
        }
      }
      await file.append(batch);
      await writeFile(join(dir, 'container'), c.Id);
    })().finally(() => this.archiving.delete(id));
    this.archiving.set(id, task);
    return task;
  }

  private async archived(id: string): Promise<string | null> {
    return readFile(join(this.jobDir(id), 'container'), 'utf8').catch(() => null);
  }

  private jobDir(id: string) {
    if (!/^[\w.-]+$/.test(id)) throw new Error(`Bad job id ${id}`);
    return join(this.opts.dataDir, 'jobs', id);
  }

  private container(id: string) {
    return this.docker.getContainer(NAME_PREFIX + id);
  }

  private async inspect(id: string): Promise<Docker.ContainerInspectInfo | null> {
    return (await this.container(id).inspect().catch(ignore(404))) ?? null;
  }
}

const failure = (message: string): SaveProgress => ({ error: message, errorDetail: { message } });

interface EngineEvent {
  Action: string;
  Actor?: { Attributes?: Record<string, string> };
}
