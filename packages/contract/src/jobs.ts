import { z } from 'zod';
import { formatUri } from './uris.js';
import { int4 } from './bounds.js';

/**
 * Jobs. The wire follows platform-api so
 * that `apolo run`, `ps`, `logs`, `status` and `kill` work against Orrery.
 */
export const JOB_STATUSES = [
  'pending',
  'suspended',
  'running',
  'succeeded',
  'failed',
  'cancelled',
] as const;
export const JobStatus = z.enum(JOB_STATUSES);
export type JobStatus = z.infer<typeof JobStatus>;
export const FINAL_JOB_STATUSES: readonly JobStatus[] = ['succeeded', 'failed', 'cancelled'];
export const isFinalJobStatus = (s: JobStatus) => FINAL_JOB_STATUSES.includes(s);

export const RestartPolicy = z.enum(['never', 'on-failure', 'always']);
export type RestartPolicy = z.infer<typeof RestartPolicy>;
export const JobPriority = z.enum(['low', 'normal', 'high']);
export type JobPriority = z.infer<typeof JobPriority>;

/** Reasons the platform gives with a status, plus Orrery's scheduler reasons. */
export const JOB_REASONS = {
  creating: 'Creating',
  scheduling: 'Scheduling',
  pulling: 'Pulling',
  containerCreating: 'ContainerCreating',
  errImagePull: 'ErrImagePull',
  oomKilled: 'OOMKilled',
  completed: 'Completed',
  error: 'Error',
  containerCannotRun: 'ContainerCannotRun',
  notFound: 'NotFound',
  clusterScalingUp: 'ClusterScalingUp',
  restarting: 'Restarting',
  diskUnavailable: 'DiskUnavailable',
  quotaExhausted: 'QuotaExhausted',
  lifeSpanEnded: 'LifeSpanEnded',
  userRequested: 'UserRequested',
  /** No credits left for the organization or the user. */
  noCredits: 'NoCredits',
  /** No node pool has room for the preset right now. */
  capacity: 'ClusterScalingUp',
  scheduleTimeout: 'ScheduleTimeout',
  /** Held by a resource quota of its project or organization (docs/scheduling.md). */
  resourceQuota: 'ResourceQuota',
  /** Stopped to give capacity to another job; it waits in the queue to start again. */
  preempted: 'Preempted',
} as const;

export const JOB_NAME = /^[a-z](?:-?[a-z0-9])*$/;
export const JOB_NAME_MIN = 3;
export const JOB_NAME_MAX = 40;
export const JOB_NAME_MESSAGE = `Job name must be ${JOB_NAME_MIN} to ${JOB_NAME_MAX} lowercase letters, digits and single hyphens, starting with a letter`;
export const MAX_TAGS = 16;
export const MAX_TAG_LENGTH = 256;
export const MIN_CPU = 0.1;
export const MIN_MEMORY = 16 * 2 ** 20;
export const MAX_SCHEDULE_TIMEOUT = 30 * 24 * 3600;
/** The most workers one job may ask for (`nodes`); the cluster's size usually bounds it first. */
export const MAX_JOB_NODES = 1024;
/** `apolo run --life-span` default: one day. */
export const DEFAULT_MAX_RUN_TIME_MINUTES = 1440;

export const jobUri = (cluster: string, org: string, project: string, id?: string) =>
  id ? formatUri('job', cluster, org, project, id) : formatUri('job', cluster, org, project);

const AbsolutePath = z
  .string()
  .min(1)
  .refine((p) => p.startsWith('/'), 'Must be an absolute path');

export const JobHttp = z.object({
  port: z.number().int().min(1).max(65535),
  health_check_path: z.string().default('/'),
  requires_auth: z.boolean().default(true),
});

export const StorageVolumeMount = z.object({
  src_storage_uri: z.string().startsWith('storage:', 'Must be a storage: URI'),
  dst_path: AbsolutePath,
  read_only: z.boolean().default(false),
});
export const DiskVolumeMount = z.object({
  src_disk_uri: z.string().startsWith('disk:', 'Must be a disk: URI'),
  dst_path: AbsolutePath,
  read_only: z.boolean().default(false),
});
export const SecretVolumeMount = z.object({
  src_secret_uri: z.string().startsWith('secret:', 'Must be a secret: URI'),
  dst_path: AbsolutePath,
});
const EnvName = z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'Invalid environment variable name');

const Tag = z
  .string()
  .min(1)
  .max(MAX_TAG_LENGTH, `A tag may have at most ${MAX_TAG_LENGTH} characters`)
  .refine((t) => !/\s/.test(t), 'Tags may not contain spaces');

/** What a job runs, shared by both create bodies. */
const ContainerFields = {
  image: z.string().min(1, 'Required'),
  entrypoint: z.string().optional(),
  /** One string, shell-quoted by the CLI. */
  command: z.string().optional(),
  working_dir: AbsolutePath.optional(),
  http: JobHttp.optional(),
  env: z.record(EnvName, z.string()).default({}),
  volumes: z.array(StorageVolumeMount).default([]),
  secret_env: z
    .record(EnvName, z.string().startsWith('secret:', 'Must be a secret: URI'))
    .default({}),
  secret_volumes: z.array(SecretVolumeMount).default([]),
  disk_volumes: z.array(DiskVolumeMount).default([]),
  tty: z.boolean().default(false),
};

const JobFields = {
  cluster_name: z.string().min(1).optional(),
  org_name: z.string().min(1),
  project_name: z.string().min(1),
  name: z
    .string()
    .min(JOB_NAME_MIN, JOB_NAME_MESSAGE)
    .max(JOB_NAME_MAX, JOB_NAME_MESSAGE)
    .regex(JOB_NAME, JOB_NAME_MESSAGE)
    .optional(),
  description: z.string().max(4096).optional(),
  tags: z.array(Tag).max(MAX_TAGS, `At most ${MAX_TAGS} tags`).default([]),
  pass_config: z.boolean().default(false),
  max_run_time_minutes: int4().positive().optional(),
  schedule_timeout: z
    .number()
    .min(1, 'Schedule timeout must be at least 1 second')
    .lt(MAX_SCHEDULE_TIMEOUT, 'Schedule timeout must be less than 30 days')
    .optional(),
  restart_policy: RestartPolicy.default('never'),
  wait_for_jobs_quota: z.boolean().default(false),
  privileged: z.boolean().default(false),
  priority: JobPriority.default('normal'),
  energy_schedule_name: z.string().optional(),
  /**
   * Orrery: the job's workers, started together or not at all, that find each other through
   * their environment (docs/jobs.md "Distributed jobs"). Apolo's clients leave it out: one.
   */
  nodes: z
    .number()
    .int('nodes must be a whole number of workers')
    .min(1, 'nodes must be at least 1')
    .max(MAX_JOB_NODES, `nodes must be at most ${MAX_JOB_NODES}`)
    .optional(),
};

/** `POST /jobs?from_preset`: container fields inline, the preset supplies the resources. */
export const JobCreateFromPreset = z
  .object({
    ...JobFields,
    ...ContainerFields,
    preset_name: z.string().min(1).optional(),
    resources: z.strictObject({ shm: z.boolean().optional() }).optional(),
  })
  .meta({ id: 'JobCreateFromPreset' });
export type JobCreateFromPreset = z.infer<typeof JobCreateFromPreset>;

const GpuCount = z.number().int().min(0).optional();
export const ContainerResourcesInput = z.object({
  cpu: z.number().min(MIN_CPU, `cpu must be at least ${MIN_CPU}`),
  /** Bytes; older SDKs send `memory_mb` instead. */
  memory: z.number().int().min(MIN_MEMORY, 'memory must be at least 16 MiB').optional(),
  memory_mb: z.number().int().min(16, 'memory must be at least 16 MiB').optional(),
  shm: z.boolean().optional(),
  nvidia_gpu: GpuCount,
  nvidia_gpu_model: z.string().optional(),
  amd_gpu: GpuCount,
  amd_gpu_model: z.string().optional(),
  intel_gpu: GpuCount,
  intel_gpu_model: z.string().optional(),
});

/** `POST /jobs` (SDK `jobs.run`): a nested container with explicit resources. */
export const JobCreate = z
  .object({
    ...JobFields,
    preset_name: z.string().min(1).optional(),
    scheduler_enabled: z.boolean().default(false),
    container: z.object({ ...ContainerFields, resources: ContainerResourcesInput }),
  })
  .meta({ id: 'JobCreate' });
export type JobCreate = z.infer<typeof JobCreate>;

export const ContainerResources = z.object({
  cpu: z.number(),
  memory: z.number(),
  memory_mb: z.number(),
  shm: z.boolean(),
  nvidia_gpu: z.number().optional(),
  nvidia_gpu_model: z.string().optional(),
  amd_gpu: z.number().optional(),
  amd_gpu_model: z.string().optional(),
  intel_gpu: z.number().optional(),
  intel_gpu_model: z.string().optional(),
});

export const JobContainer = z.object({
  image: z.string(),
  resources: ContainerResources,
  env: z.record(z.string(), z.string()),
  volumes: z.array(StorageVolumeMount),
  entrypoint: z.string().optional(),
  command: z.string().optional(),
  working_dir: z.string().optional(),
  http: z
    .object({
      port: z.number(),
      health_check_path: z.string(),
      requires_auth: z.boolean(),
      /**
       * Orrery: what a user opens in an interactive app's job (`terminal`, `notebook`, `IDE`):
       * opening it needs write access to the job. Set by the apps service only.
       */
      interactive: z.string().optional(),
    })
    .optional(),
  secret_env: z.record(z.string(), z.string()),
  secret_volumes: z.array(SecretVolumeMount),
  disk_volumes: z.array(DiskVolumeMount),
  tty: z.boolean(),
});
export type JobContainer = z.infer<typeof JobContainer>;

export const JobHistory = z.object({
  status: JobStatus,
  reason: z.string().nullable(),
  description: z.string().nullable(),
  created_at: z.string(),
  started_at: z.string().optional(),
  finished_at: z.string().optional(),
  run_time_seconds: z.number(),
  restarts: z.number().int(),
  exit_code: z.number().int().optional(),
});

export const JobStatusItem = z.object({
  status: JobStatus,
  transition_time: z.string(),
  reason: z.string().nullable(),
  description: z.string().nullable(),
  exit_code: z.number().int().optional(),
});
export type JobStatusItem = z.infer<typeof JobStatusItem>;

export const Job = z
  .object({
    id: z.string(),
    owner: z.string(),
    cluster_name: z.string(),
    org_name: z.string(),
    project_name: z.string(),
    uri: z.string(),
    namespace: z.string(),
    status: JobStatus,
    history: JobHistory,
    statuses: z.array(JobStatusItem),
    container: JobContainer,
    scheduler_enabled: z.boolean(),
    pass_config: z.boolean(),
    preemptible_node: z.boolean(),
    is_preemptible: z.boolean(),
    is_preemptible_node_required: z.boolean(),
    privileged: z.boolean(),
    materialized: z.boolean(),
    being_dropped: z.boolean(),
    logs_removed: z.boolean(),
    restart_policy: RestartPolicy,
    priority: JobPriority,
    total_price_credits: z.string(),
    price_credits_per_hour: z.string(),
    name: z.string().optional(),
    preset_name: z.string().optional(),
    description: z.string().optional(),
    tags: z.array(z.string()),
    schedule_timeout: z.number().optional(),
    max_run_time_minutes: z.number().optional(),
    energy_schedule_name: z.string().optional(),
    http_url: z.string().optional(),
    http_url_named: z.string().optional(),
    internal_hostname: z.string().optional(),
    internal_hostname_named: z.string().optional(),
    /** Orrery: which runtime runs the job (`process` runs on the host system). */
    runtime: z.string(),
    /** Orrery: its workers (docs/jobs.md "Distributed jobs"); 1 for most jobs. */
    nodes: z.number().int().optional(),
    /** Orrery: a warning about how the job runs (e.g. no sandbox), shown on the job page. */
    runtime_warning: z.string().optional(),
    /**
     * Orrery: a waiting job's place among those it competes with, 1 being the next to be
     * admitted (docs/scheduling.md); absent once it runs or ends.
     */
    queue_position: z.number().int().optional(),
  })
  .meta({ id: 'Job' });
export type JobWire = z.infer<typeof Job>;
export const JobList = z.object({ jobs: z.array(Job) });

const many = <T extends z.ZodType>(item: T) =>
  z.preprocess((v) => (v === undefined ? [] : Array.isArray(v) ? v : [v]), z.array(item));
const bool = z
  .union([z.boolean(), z.enum(['1', '0', 'true', 'false', 'True', 'False'])])
  .transform((v) => v === true || v === '1' || v === 'true' || v === 'True');

export const JobListQuery = z.object({
  status: many(JobStatus),
  name: z.string().optional(),
  owner: many(z.string()),
  tag: many(z.string()),
  /** Orrery: the jobs of a flow, i.e. those its bakes and live jobs tag. */
  flow_name: z.string().min(1).max(256).optional(),
  since: z.iso.datetime({ offset: true }).optional(),
  until: z.iso.datetime({ offset: true }).optional(),
  cluster_name: z.string().optional(),
  org_name: z.string().optional(),
  project_name: many(z.string()),
  reverse: bool.optional(),
  limit: z.coerce.number().int().positive().max(10_000).optional(),
  /** Orrery: resume after this job (id of the last job of the previous page). */
  cursor: z.string().optional(),
  /** Orrery: case-insensitive substring of the id or the name, for the console's search. */
  q: z.string().optional(),
  materialized: bool.optional(),
  being_dropped: bool.optional(),
  logs_removed: bool.optional(),
  hostname: z.string().optional(),
});
export type JobListQuery = z.infer<typeof JobListQuery>;

export const JobMaxRunTime = z.union([
  z.object({ additional_max_run_time_minutes: int4().positive() }),
  z.object({ max_run_time_minutes: int4().positive() }),
]);

/**
 * Orrery: one worker of a job of several (docs/jobs.md "Distributed jobs"), by its rank: its own
 * log, its live stats, exec and attach into it.
 */
export const JobWorkerQuery = z.object({
  worker: z.coerce
    .number()
    .int('worker must be a whole number')
    .min(0, 'worker must be at least 0')
    .optional(),
});

export const JobLogQuery = JobWorkerQuery.extend({
  since: z.iso.datetime({ offset: true }).optional(),
  timestamps: bool.optional(),
  debug: bool.optional(),
  separator: z.string().optional(),
  archive_delay: z.coerce.number().optional(),
});

/** One sample of the `top` WebSocket. */
export const JobTopSample = z.object({
  cpu: z.number(),
  memory: z.number(),
  memory_bytes: z.number(),
  timestamp: z.number(),
  gpu_duty_cycle: z.number().optional(),
  gpu_memory: z.number().optional(),
  gpu_memory_bytes: z.number().optional(),
});
export type JobTopSample = z.infer<typeof JobTopSample>;

/** Orrery: the last 15 minutes of a job's `top` samples, kept while it runs (jobs-api.md). */
export const JobMetrics = z.object({ samples: z.array(JobTopSample) });
export type JobMetrics = z.infer<typeof JobMetrics>;
/** Orrery: how this installation runs jobs, for forms that must say so before Create. */
export const JobRuntimeInfo = z.object({
  name: z.string(),
  /** Whether a running job's image can be saved (`POST /jobs/{id}/save`). */
  can_save_image: z.boolean(),
  /** Whether the job's image is used (false: the command runs with the host system's tools). */
  uses_image: z.boolean(),
  /** Why this installation runs no one's job (ORRERY_UNSANDBOXED_JOBS=refuse without a sandbox). */
  refused_reason: z.string().optional(),
  /** Jobs run, but not isolated from each other and the host (ORRERY_UNSANDBOXED_JOBS=allow). */
  isolation_warning: z.string().optional(),
  /** Why jobs of several workers (`nodes`) do not run here; absent where they do. */
  workers_refusal: z.string().optional(),
  /** Why jobs with volumes are refused here (the process runtime without bubblewrap). */
  volumes_refused_reason: z.string().optional(),
  /** Why jobs with an HTTP port are refused here (the sandbox without slirp4netns). */
  http_refused_reason: z.string().optional(),
  /**
   * Jobs get a free port in `PORT` for their HTTP port, not the one they declare (the process
   * runtime outside a root server's sandbox shares the host's ports): they must listen on `$PORT`.
   */
  http_port_assigned: z.boolean().optional(),
});
export type JobRuntimeInfo = z.infer<typeof JobRuntimeInfo>;

/**
 * The sub-protocol of `GET /api/v1/jobs/{id}/status_ws` (Orrery's): the job as
 * `GET /api/v1/jobs/{id}` answers it, sent at once and at each change of its status.
 */
export const JOB_STATUS_WS_PROTOCOL = 'job-status.orrery';

export const JobSaveBody = z.object({ container: z.object({ image: z.string().min(1) }) });
export const JobCapacity = z.record(z.string(), z.number().int());

/** Job statuses the console filters by; "all" means no filter. */
export const JOB_STATUS_FILTERS = [
  'all',
  'failed',
  'succeeded',
  'pending',
  'running',
  'cancelled',
] as const;
export const JOB_TEXTS = {
  killed: 'Job killed',
  rerun: (name: string) => `Job ${name} rerun`,
  imageSaved: 'Image saved',
  empty: 'No jobs found',
  noSuchJob: 'No such job',
  permissionRequired: 'Permission Required',
  templateMissing: 'Required template job not found',
  noTemplate: 'No job template found',
  noCredits: (who: string) => `No credits left for ${who}`,
  runsOnHost:
    "This job runs on the server's own machine with the process runtime: a process tree, not a container.",
} as const;

/**
 * `POST /api/v1/jobs/{id}/ingress-ticket`: the job's URL with a one-time ticket (about a minute),
 * which the job's host exchanges for a cookie of its own; the console opens it in a new tab.
 */
export const IngressTicket = z.object({ url: z.string() });
export type IngressTicket = z.infer<typeof IngressTicket>;
