import type { Readable } from 'node:stream';

/**
 * The runtime driver interface (docs/runtimes.md). The jobs service owns the state machine,
 * history, quotas and credits; a driver only starts, observes and stops what it is told to run.
 * Everything here is resolved by the service beforehand: volumes are host paths, secrets are
 * plain values, the preset is a set of limits.
 */
export type RuntimeName = 'process' | 'docker' | 'kubernetes' | 'slurm';

export interface JobMount {
  /** Absolute host path (a storage folder, a disk directory, or a file holding one secret). */
  hostPath: string;
  /** Absolute path inside the job. */
  dstPath: string;
  readOnly: boolean;
  /**
   * The job's uid takes the volume's tree (the process runtime) instead of sharing it with the
   * project's jobs: for a server such as PostgreSQL that insists on owning its data directory.
   * Set only by the server for an app's own home (apps runner.ts `ownedVolumes`), never by a
   * job request.
   */
  owned?: boolean;
  /**
   * What the mount is, for a runtime whose jobs do not run on this machine (kubernetes): a
   * storage folder (its path under the storage root), a disk (a PersistentVolumeClaim of its
   * size), or a secret (the file's bytes go into a Secret). The local runtimes bind `hostPath`.
   */
  source?:
    | { kind: 'storage'; path: string }
    | { kind: 'disk'; id: string; bytes: number }
    | { kind: 'secret' };
}

export interface JobLimits {
  cpu: number;
  /** Bytes. */
  memory: number;
  shm: boolean;
  gpu?: { vendor: 'nvidia' | 'amd' | 'intel'; count: number; model?: string };
}

export interface JobSpec {
  /** The job id; drivers name their process/container after it so they can find it again. */
  id: string;
  image: string;
  entrypoint?: string;
  /** One shell-quoted string, as the CLI sends it. */
  command?: string;
  workingDir?: string;
  /** Plain env and the already-decrypted secret env, merged. */
  env: Record<string, string>;
  mounts: JobMount[];
  limits: JobLimits;
  /** The port the job serves HTTP on; the driver publishes it on 127.0.0.1. */
  httpPort?: number;
  /**
   * `cluster/org/project`: the jobs that may reach `httpPort` from inside theirs (the job's relay,
   * relay.ts, lets only the same project's through).
   */
  project?: string;
  tty: boolean;
  privileged: boolean;
  /** Names in `env` whose values came from secrets (a cluster runtime keeps them in a Secret). */
  secretEnv?: string[];
  /**
   * Where and how the job may be scheduled, for a cluster runtime (kubernetes): the preset's node
   * pools, whether it may land on preemptible nodes, and the job's restart policy and maximum
   * run time (the jobs service enforces both; the runtime records them on what it makes).
   */
  placement?: {
    pools: string[];
    preemptible: boolean;
    restartPolicy: string;
    maxRunTimeMinutes?: number;
  };
  /** Credentials for pulling the image from Orrery's own registry (the owner's token). */
  registryAuth?: { username: string; password: string; serveraddress: string };
  /**
   * A gang (docs/jobs.md "Distributed jobs"): this many workers, each with `limits`, started
   * together under the one job id, each told its rank and the master's address in its
   * environment (`gangEnv`). Absent: one. Only a driver whose `gangs` is true is given one.
   */
  workers?: number;
}

/** The rendezvous a gang's workers are told of: where rank 0 listens. */
export interface Rendezvous {
  /** The master's (rank 0's) address, as the workers reach it. */
  address: string;
  /** A port free for the rendezvous on the master. */
  port: number;
}

/**
 * The environment of worker `rank` of a gang of `workers`: Orrery's own names, and the ones
 * PyTorch's `torch.distributed` and `torchrun` read (docs/jobs.md "Distributed jobs").
 */
export function gangEnv(rank: number, workers: number, r: Rendezvous): Record<string, string> {
  return {
    ORRERY_WORKER_RANK: String(rank),
    ORRERY_WORKERS: String(workers),
    ORRERY_MASTER_ADDR: r.address,
    ORRERY_MASTER_PORT: String(r.port),
    MASTER_ADDR: r.address,
    MASTER_PORT: String(r.port),
    WORLD_SIZE: String(workers),
    RANK: String(rank),
    NODE_RANK: String(rank),
    // One process per worker: each is the first and only one on its own "node".
    LOCAL_RANK: '0',
    LOCAL_WORLD_SIZE: '1',
    // torchrun's own names for its --nnodes and --node_rank (one process per worker by default).
    PET_NNODES: String(workers),
    PET_NODE_RANK: String(rank),
    PET_MASTER_ADDR: r.address,
    PET_MASTER_PORT: String(r.port),
  };
}

/** What a driver observes about one job. */
export type ObservedState =
  | { state: 'starting'; reason?: string; message?: string }
  | { state: 'running'; startedAt: Date }
  | {
      state: 'exited';
      exitCode: number;
      finishedAt: Date;
      startedAt?: Date;
      reason?: string;
      /** Why, in a sentence for the job's history (e.g. the memory limit it exceeded). */
      message?: string;
    }
  /** The driver knows nothing of this job (e.g. lost with the machine). */
  | { state: 'missing' };

export interface LogOptions {
  since?: Date;
  /** Keep the stream open while the job runs. */
  follow: boolean;
  /** Prefix each line with an RFC 3339 timestamp. */
  timestamps: boolean;
  /** One worker's own output, of a job of several (rank from 0); absent: the merged log. */
  worker?: number;
}

export interface StatsSample {
  /** Cores in use (1.0 = one full core). */
  cpu: number;
  memoryBytes: number;
  gpuDutyCycle?: number;
  gpuMemoryBytes?: number;
  timestamp: number;
}

export interface PoolCapacity {
  name: string;
  cpu: number;
  memory: number;
  diskSize: number;
  gpu?: { vendor: 'nvidia' | 'amd' | 'intel'; count: number; model?: string; memory?: number };
  /** What is free for new jobs right now, after the jobs this driver runs. */
  availableCpu: number;
  availableMemory: number;
}

/**
 * One node of the cluster as the scheduler counts it (docs/scheduling.md): what it offers to
 * Orrery's jobs whole (work that is not Orrery's already subtracted, on an engine that shares its
 * nodes), in the node pool it belongs to. Amounts: cores, bytes, devices by vendor.
 */
export interface NodeCapacity {
  name: string;
  pool: string;
  cpu: number;
  memory: number;
  gpus?: Partial<Record<'nvidia' | 'amd' | 'intel', number>>;
  /**
   * At most this many workers of one job on the node (Slurm starts one per node of the job's
   * allocation); absent: as many as fit.
   */
  workersPerJob?: number;
}

export interface ExecOptions {
  command: string[];
  tty: boolean;
  stdin: boolean;
  /**
   * The worker (rank from 0) of a job of several to run in; absent: worker 0. A driver that runs
   * gangs honours it; the route has checked it against the job's workers.
   */
  worker?: number;
}

export interface ExecSession {
  stdin?: NodeJS.WritableStream;
  stdout: Readable;
  stderr?: Readable;
  resize?(rows: number, cols: number): void;
  exitCode: Promise<number>;
}

export interface SaveProgress {
  status?: string;
  id?: string;
  progressDetail?: { current?: number; total?: number };
  aux?: { Tag: string; Digest: string; Size: number };
  error?: string;
  errorDetail?: { message: string };
  details?: Record<string, unknown>;
}

export interface RuntimeDriver {
  readonly name: RuntimeName;
  /** A sentence for the log and the job page when the driver runs jobs without isolation. */
  readonly warning?: string;
  /**
   * Why this runtime runs no one's job (the process runtime without its sandbox, unless the
   * operator allowed that): job creation is refused with it, and `start` fails with it.
   */
  readonly refusal?: string;
  /**
   * Set when jobs run, but not isolated from each other and the host (ORRERY_UNSANDBOXED_JOBS=allow):
   * what the job form and app installs tell every user.
   */
  readonly notIsolated?: string;
  /**
   * Whether jobs of several workers (JobSpec.workers) run here: true, or why not (the job is
   * refused with it). Absent: not on this runtime yet.
   */
  readonly gangs?: true | string;
  /**
   * What this runtime cannot give a job, and why (the process runtime without bubblewrap mounts
   * no volume): a job asking for it is refused when it is created, and the apps that always ask
   * for it cannot be installed.
   */
  readonly jobRefusals?: Partial<Record<'volumes' | 'http', string>>;
  /**
   * Jobs get a free port of the host in `PORT` for their HTTP port, not the one they declare
   * (the process runtime outside a root server's sandbox shares the host's ports): the job form
   * and the job page say to listen on `$PORT`.
   */
  readonly assignsHttpPort?: boolean;
  /** Start the job; resolves once it has been handed to the runtime (not when it is running). */
  start(spec: JobSpec): Promise<void>;
  /** Stop the job (SIGTERM, then SIGKILL after a grace period) and free its resources. */
  kill(id: string): Promise<void>;
  observe(id: string): Promise<ObservedState>;
  /** Called once per state change the driver notices; the service also polls `observe`. */
  onChange(listener: (id: string) => void): () => void;
  /** Ids of every job the driver holds, running or exited but not yet removed. */
  list(): Promise<string[]>;
  /** Forget an exited job (its logs stay readable through `logs`). */
  remove(id: string): Promise<void>;
  logs(id: string, options: LogOptions): Promise<Readable>;
  /**
   * Samples about once a second while the job runs; ends when it stops. A gang's workers added
   * up, or one worker's (rank from 0, checked by the route against the job's workers).
   */
  stats(id: string, signal: AbortSignal, worker?: number): AsyncIterable<StatsSample>;
  /** Host address of the job's HTTP port, or null when it is not listening (yet). */
  endpoint(id: string): Promise<{ host: string; port: number } | null>;
  /**
   * Where the project's other jobs reach the job's HTTP port: its relay (relay.ts), since nothing
   * resolves its internal host name (`{id}.{org}--{project}`) on either runtime. Null without
   * relays (no firewall to open them in). The docker runtime opens it on demand, also before
   * the job starts, so that jobs created after it get its address.
   */
  reachFromJobs?(id: string): Promise<{ host: string; port: number } | null>;
  capacity(): Promise<PoolCapacity[]>;
  /** Every node that takes work now, for the scheduler's admission pass. */
  nodes(): Promise<NodeCapacity[]>;
  /** Frees what the runtime made for a disk that was deleted (kubernetes: its claim). */
  removeDisk?(diskId: string): Promise<void>;
  /**
   * The job's own stdin and output (a runtime that keeps them open: kubernetes); `exitCode`
   * resolves when the job ends. Without it, attach only waits for the end.
   */
  attach?(id: string, options: ExecOptions): Promise<ExecSession>;
  exec?(id: string, options: ExecOptions): Promise<ExecSession>;
  /** Commit the job's filesystem as `image` and push it (docker only). */
  save?(
    id: string,
    image: string,
    auth: { username: string; password: string },
  ): AsyncIterable<SaveProgress>;
  close(): Promise<void>;
}
