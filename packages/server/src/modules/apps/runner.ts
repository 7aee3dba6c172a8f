import type { APP_RUNTIMES, JobCreateFromPreset } from '@orrery/contract';
import type { HealthCheck } from './health.js';

/**
 * What turns an app template's input into jobs, and a running instance into outputs. The apps
 * service (modules/apps) owns instances, revisions, states and events; a runner only knows its
 * template: which jobs to start, which HTTP check means "healthy", what the outputs are and, for
 * interactive apps, when the user last did something. Built-in runners live in
 * modules/apps/templates/<template>/ and are listed in modules/apps/templates/index.ts.
 */

export type AppRuntime = (typeof APP_RUNTIMES)[number];

/**
 * Runtimes whose jobs run the programs installed where they land (Debian's, and Orrery's app
 * programs), not a container image: the server's machine, or a Slurm node.
 */
export const runsHostPrograms = (runtime: AppRuntime) =>
  runtime === 'process' || runtime === 'slurm';

/** The preset an instance runs on, after the preset fallback rule (docs/apps.md). */
export interface AppPreset {
  name: string;
  cpu: number;
  memoryBytes: number;
  gpu?: { vendor: 'nvidia' | 'amd' | 'intel'; count: number; model?: string };
}

/** Where an instance lives and who installed it. */
export interface InstanceContext {
  instanceId: string;
  /** The instance name: a slug unique among the project's installed instances. */
  name: string;
  cluster: string;
  org: string;
  project: string;
  /** The installer's username; the instance's jobs are theirs. */
  creator: string;
  /** The runtime this installation runs jobs on. */
  runtime: AppRuntime;
  preset: AppPreset;
  /**
   * The persistent home of interactive apps, `storage:.apps/<template>/<instance name>` (relative
   * to the project), made by the apps service before the jobs start.
   */
  home: string;
  /** Orrery's public URL (ORRERY_PUBLIC_URL), e.g. for links in outputs. */
  publicUrl: string;
  /**
   * The domain of jobs' own hosts (ORRERY_INGRESS_DOMAIN): a job is served at the root of
   * `<job id>.<domain>`, on the public URL's scheme and port (jobs/ingress-host.ts `jobOrigin`).
   */
  ingressDomain: string;
}

/** One job of an instance. */
export interface AppJob {
  /** Stable within the instance: `main`, `db`, … (the job is tagged `app-role:<role>`). */
  role: string;
  /**
   * The body of `POST /api/v1/jobs?from_preset` without the place (cluster, org, project): the
   * service adds the place, the tag `instance_id:<id>`, and submits it as the installer, so every
   * admission rule (credits, quota, access to volumes) applies as to any job.
   */
  body: Omit<JobCreateFromPreset, 'cluster_name' | 'org_name' | 'project_name'>;
  /**
   * dst paths of the body's storage volumes that the job's uid owns on the process runtime, for
   * a server that insists on owning its data directory (PostgreSQL); shared with the project's
   * other jobs otherwise.
   */
  ownedVolumes?: string[];
  /**
   * Env from jobs planned before this one (the service fills it once they exist), name →
   * `{role, as}`: the host and the port where jobs of the project reach the sibling's port
   * (`host`, `port`: its relay), or its URL through the ingress (`url`, how a browser does).
   */
  siblingEnv?: Record<string, { role: string; as: 'host' | 'port' | 'url' }>;
}

/** What an instance runs, computed from its input at install, configure and rollback. */
export interface AppPlan {
  jobs: AppJob[];
  /** The check that makes the instance healthy, through the server's forward (health.ts). */
  health?: HealthCheck;
  /**
   * Project secrets the service creates (if missing) before the jobs start, key → value: a
   * generated password, say, that jobs read through `secret_env` and outputs name by key.
   */
  secrets?: Record<string, string>;
}

/** An HTTP endpoint of a job: as the project's jobs reach it, and through Orrery's ingress. */
export interface AppEndpoint {
  internal: { host: string; port: number; protocol: 'http' };
  external: { host: string; port: number; protocol: 'http' | 'https'; basePath: string };
}

export interface OutputContext extends InstanceContext {
  /** Endpoints by job role, for jobs that have an HTTP port and are running. */
  endpoints: Record<string, AppEndpoint>;
}

export interface AppRunner {
  /** The template this runner serves (the manifest's `name`). */
  template: string;
  /**
   * What a user opens in an interactive app (`terminal`, `notebook`, `IDE`): its jobs are marked
   * so, and opening them needs write access to the job, not read (docs/apps.md). Absent for
   * apps that only show a web page or serve an API.
   */
  interactive?: 'terminal' | 'notebook' | 'IDE';
  /** The runtimes it can run on; the catalogue disables Install on the others. */
  runtimes: AppRuntime[];
  /**
   * What every plan of it asks of the runtime, whatever the input (a persistent home is a volume):
   * where the runtime refuses it (driver.ts `jobRefusals`), Install is disabled with the reason.
   */
  needs?: ('volumes' | 'http')[];
  /**
   * Null when this installation can run it on `runtime`, else why not ("jupyter-notebook is not
   * installed"): what the server's own machine lacks matters where jobs run its programs (on
   * Slurm the nodes are expected to have the server's packages: docs/operations.md).
   */
  unavailable?(runtime: AppRuntime): string | null;
  plan(input: Record<string, unknown>, ctx: InstanceContext): AppPlan | Promise<AppPlan>;
  /** The output object of the running instance, in Apolo's field names (`app_url`, …). */
  outputs(input: Record<string, unknown>, ctx: OutputContext): Record<string, unknown>;
  /**
   * Interactive apps: when the user last did something (terminal input or output, a kernel
   * executing, an IDE heartbeat), asked of the running app through `probe` (a GET on the job's
   * HTTP port of `role`). Null when the app cannot tell; absent for non-interactive apps.
   */
  lastActivity?(
    probe: (role: string, path: string) => Promise<Response>,
    ctx: OutputContext,
  ): Promise<Date | null>;
}
