import { z } from 'zod';
import { JobLogQuery } from './jobs.js';
import { TemplateSummary, TemplateVersion } from './templates.js';

/**
 * Apps (docs/apps.md):
 * templates as data (a manifest beside its input and output JSON Schemas), and the instances
 * installed from them.
 */

/** The tag sorted first among tags (`GET templates/tags`) and on catalogue cards. */
export const EASY_DEPLOY_TAG = 'Easy Deploy';

/**
 * Where an app's jobs can run. Kubernetes runs the same container images as docker, so every
 * template whose jobs are images runs on both; Slurm runs the programs of its nodes, as the
 * process runtime runs those of the server's machine (docs/runtimes.md).
 */
export const APP_RUNTIMES = ['process', 'docker', 'kubernetes', 'slurm'] as const;
export const AppRuntimeName = z.enum(APP_RUNTIMES);

const fileOrUrl = z.string().min(1);

/**
 * `manifest.yaml` of a template's `<name>/<version>/` folder. A template runs through a built-in
 * runner (`runner`), or, for operator templates, through the declarative `deploy` section that
 * the generic deploy runner starts as one served job.
 */
export const AppManifest = z
  .strictObject({
    name: z.string().regex(/^[a-z0-9][a-z0-9-]*$/, 'lowercase letters, digits and hyphens'),
    title: z.string().min(1),
    version: z.string().regex(/^\d+(\.\d+)*([-+][\w.]+)?$/, 'a version such as 1.2.0'),
    pub_date: z.iso.date().or(z.iso.datetime({ offset: true })),
    short_description: z.string().min(1),
    logo: fileOrUrl.optional(),
    tags: z.array(z.string().min(1)).default([]),
    assets: z
      .array(
        z.strictObject({
          type: z.enum(['image', 'video']),
          url: z.string().url().optional(),
          file: z.string().min(1).optional(),
        }),
      )
      .default([]),
    external_urls: z
      .array(z.strictObject({ name: z.string().min(1), type: z.string().min(1), url: z.url() }))
      .default([]),
    runtimes: z.array(AppRuntimeName).min(1),
    runner: z.string().min(1).optional(),
    deploy: z
      .strictObject({
        image: z.string().min(1),
        command: z.string().min(1).optional(),
        http_port: z.number().int().min(1).max(65535),
        health_path: z.string().startsWith('/').default('/'),
        /**
         * Idle shutdown: a path answering `{"last_activity": ISO time or null}`; with it the
         * input's `idle_timeout_minutes` stops the app after that long without activity.
         */
        activity_path: z.string().startsWith('/').optional(),
        env: z.record(z.string(), z.string()).default({}),
      })
      .optional(),
  })
  .refine((m) => !!m.runner !== !!m.deploy, 'exactly one of runner and deploy');
export type AppManifest = z.infer<typeof AppManifest>;

/** Whether this installation can run a template, and why not. */
const Availability = {
  available: z.boolean(),
  unavailable_reason: z.string().nullable(),
};

/** `GET templates`: the newest version of every template, with what the catalogue card needs. */
export const AppTemplateSummary = TemplateSummary.extend({
  logo: z.string().nullable(),
  pub_date: z.string(),
  ...Availability,
}).meta({ id: 'AppTemplateSummary' });
export type AppTemplateSummaryWire = z.infer<typeof AppTemplateSummary>;

export const AppTemplateVersion = TemplateVersion.extend({
  pub_date: z.string(),
  is_latest: z.boolean(),
}).meta({ id: 'AppTemplateVersion' });
export type AppTemplateVersionWire = z.infer<typeof AppTemplateVersion>;

export const AppTemplate = AppTemplateSummary.extend({
  input: z.record(z.string(), z.unknown()),
  output: z.record(z.string(), z.unknown()),
  description: z.string(),
  assets: z.array(z.object({ type: z.enum(['image', 'video']), url: z.string() })),
  external_urls: z.array(z.object({ name: z.string(), type: z.string(), url: z.string() })),
  runtimes: z.array(AppRuntimeName),
  is_latest: z.boolean(),
}).meta({ id: 'AppTemplate' });
export type AppTemplateWire = z.infer<typeof AppTemplate>;

export const APP_STATES = [
  'queued',
  'progressing',
  'healthy',
  'degraded',
  'errored',
  'uninstalling',
  'uninstalled',
] as const;
export const AppState = z.enum(APP_STATES);
export type AppState = z.infer<typeof AppState>;

/** The start-up step the console shows until an instance is healthy. */
export const APP_STEPS = ['waiting_for_capacity', 'starting', 'waiting_for_http'] as const;

/** The App object of the CLI (every key present), plus what the console shows. */
export const AppInstance = z
  .object({
    id: z.string(),
    name: z.string(),
    display_name: z.string(),
    template_name: z.string(),
    template_version: z.string(),
    project_name: z.string(),
    org_name: z.string(),
    cluster_name: z.string(),
    namespace: z.string(),
    state: AppState,
    creator: z.string(),
    created_at: z.string(),
    updated_at: z.string(),
    endpoints: z.array(z.string()),
    /**
     * Orrery: what a user opens in an interactive app (`terminal`, `notebook`, `IDE`), which
     * needs write access to its job; null for an app that shows a page or serves an API.
     */
    interactive: z.string().nullable().optional(),
    /** Orrery: the console's progress until healthy. */
    startup: z
      .object({ step: z.enum(APP_STEPS), since: z.string(), message: z.string().nullable() })
      .nullable(),
    /**
     * Orrery: why an errored or degraded instance is so (its failed job's reason, its health
     * check's answer), as its event says; null otherwise.
     */
    state_message: z.string().nullable().optional(),
    /** Orrery: the idle shutdown countdown, when the instance has one and runs. */
    idle: z.object({ timeout_minutes: z.number(), seconds_left: z.number() }).nullable(),
    /** Orrery: instances whose input refers to this one (named in the uninstall confirmation). */
    used_by: z.array(z.object({ id: z.string(), display_name: z.string() })),
    /** Orrery: the jobs of the instance. */
    job_ids: z.array(z.string()),
    home: z.string().nullable(),
    /** Orrery: credits per hour of the jobs it runs now, and of all it ran (decimal strings). */
    credits_per_hour: z.string(),
    credits_so_far: z.string(),
  })
  .meta({ id: 'AppInstance' });
export type AppInstanceWire = z.infer<typeof AppInstance>;

export const AppInstall = z.object({
  template_name: z.string().min(1),
  template_version: z.string().min(1).default('latest'),
  input: z.record(z.string(), z.unknown()).default({}),
  display_name: z.string().max(200).optional(),
});
export const AppConfigure = z.object({
  display_name: z.string().max(200).optional(),
  input: z.record(z.string(), z.unknown()).optional(),
  comment: z.string().max(1000).optional(),
});
export const AppRollback = z.object({ comment: z.string().max(1000).optional() });

export const AppEvent = z.object({
  created_at: z.string(),
  state: AppState,
  reason: z.string().nullable(),
  message: z.string().nullable(),
  resources: z.array(
    z.object({
      kind: z.string(),
      name: z.string(),
      uid: z.string(),
      health_status: z.string(),
      health_message: z.string().nullable(),
    }),
  ),
});
export type AppEventWire = z.infer<typeof AppEvent>;

export const AppRevision = z.object({
  revision_number: z.number().int(),
  creator: z.string(),
  comment: z.string().nullable(),
  created_at: z.string(),
  end_at: z.string().nullable(),
});

export const AppValue = z.object({
  instance_id: z.string(),
  type: z.string(),
  path: z.string(),
  value: z.unknown(),
});

/** One input error of an install or configure: `path` items are strings (the CLI joins them). */
export interface AppInputError {
  path: string[];
  message: string;
}

/** An input value that refers to another instance's output (`x-meta-type: integration`). */
export const AppInstanceRef = z.object({
  type: z.literal('app-instance-ref'),
  instance_id: z.string().min(1),
  path: z.string(),
});

const manyStates = z.preprocess(
  (v) => (v === undefined ? [] : Array.isArray(v) ? v : [v]),
  z.array(AppState),
);
const page = z.coerce.number().int().min(1).default(1);
const size = z.coerce.number().int().min(1).max(500);

/** `GET v2/instances` (the CLI's `app ls`) and the console's `GET instances`. */
export const AppListQuery = z.object({
  cluster: z.string().min(1).optional(),
  org: z.string().min(1).optional(),
  project: z.string().min(1).optional(),
  states: manyStates,
  page,
  size: size.default(100),
});
export const AppPageQuery = z.object({ page, size: size.default(50) });
export const AppValuesQuery = AppPageQuery.extend({
  type: z.string().min(1).optional(),
  restore_ref: z.string().optional(),
});
export const AppUninstallQuery = z.object({
  force: z
    .enum(['true', 'false', '1', '0', 'True', 'False'])
    .optional()
    .transform((v) => v === 'true' || v === '1' || v === 'True'),
});

/**
 * States in which an instance starts nothing more until it is configured again (or never): its
 * log stream ends once the jobs it ran have drained, and the console stops reconnecting.
 */
export const APP_FINAL_STATES = ['errored', 'uninstalling', 'uninstalled'] as const;
export const isFinalAppState = (s: AppState) =>
  (APP_FINAL_STATES as readonly AppState[]).includes(s);

const manyNames = z.preprocess(
  (v) => (v === undefined ? [] : Array.isArray(v) ? v : [v]),
  z.array(z.string().min(1)),
);

/**
 * `GET {monitoring}/apps/{id}/log` and `log_ws`: the jobs' query, plus Apolo's
 * repeated `container` naming the containers (job roles) to read; none means all of them.
 */
export const AppLogQuery = JobLogQuery.extend({ container: manyNames });

/** One line of the console's NDJSON log of an instance. */
export const AppLogLine = z.object({
  job_id: z.string(),
  /** The job's role in the instance (`main`, `db`, …): Apolo's container name. */
  container: z.string(),
  log: z.string(),
});
export type AppLogLineWire = z.infer<typeof AppLogLine>;

/** `GET {monitoring}/apps/{id}/containers`: the containers that ran between since and until. */
export const AppContainersQuery = z.object({
  since: z.iso.datetime({ offset: true }).optional(),
  until: z.iso.datetime({ offset: true }).optional(),
});

/** `/apis/apps/v2`, the CLI's base for listing and reading instances. */
export const APPS_V2 = '/apis/apps/v2';
