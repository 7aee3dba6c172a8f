import { z } from 'zod';

/**
 * Flows and bakes. The objects
 * follow the public flow API so that the official `apolo-flow` client runs against Orrery; the
 * start and restart requests at the end are Orrery's own (bakes started with no CLI).
 */
export const FLOW_API = '/api/v1/flow';

export const TASK_STATUSES = [
  'pending',
  'running',
  'succeeded',
  'failed',
  'cancelled',
  'skipped',
  'cached',
  'unknown',
] as const;
export const TaskStatus = z.enum(TASK_STATUSES);
export type TaskStatus = z.infer<typeof TaskStatus>;
/** A task or attempt in one of these will not change again. */
export const FINAL_TASK_STATUSES: readonly TaskStatus[] = [
  'succeeded',
  'failed',
  'cancelled',
  'skipped',
  'cached',
];
export const isFinalTaskStatus = (s: TaskStatus) => FINAL_TASK_STATUSES.includes(s);
/** A bake whose last attempt is in one of these can be killed. */
export const KILLABLE_RESULTS: readonly TaskStatus[] = ['pending', 'running'];

export const BAKE_IMAGE_STATUSES = [
  'pending',
  'building',
  'built',
  'build_failed',
  'cached',
] as const;
export const BakeImageStatus = z.enum(BAKE_IMAGE_STATUSES);

/**
 * Timestamps as Python's `datetime.fromisoformat` reads them on every version the client
 * supports: an explicit `+00:00` offset, never a trailing `Z`.
 */
export const flowTime = (d: Date) => d.toISOString().replace('Z', '+00:00');

/**
 * How `apolo-flow` writes an id into a job tag (its `_id2tag`): `_` turned into `-`, lower case.
 * The flow's jobs carry `project:<flow>`, `flow:<batch>` and `task:<task id>` in this form.
 */
export const flowIdTag = (id: string) => id.replace(/_/g, '-').toLowerCase();
/** The tag every job of a flow carries (project.yml `id`): the jobs list's `flowName` filter. */
export const flowJobsTag = (flowName: string) => `project:${flowIdTag(flowName)}`;

const StringMap = z.record(z.string(), z.string());

// ---- projects ----
export const FlowProject = z
  .object({
    id: z.string(),
    name: z.string(),
    owner: z.string(),
    cluster: z.string(),
    org_name: z.string().nullable(),
    project_name: z.string(),
  })
  .meta({ id: 'FlowProject' });
export type FlowProjectWire = z.infer<typeof FlowProject>;
export const FlowProjectCreate = z.object({
  name: z.string().min(1).max(256),
  project_name: z.string().min(1),
  cluster: z.string().min(1),
  org_name: z.string().nullish(),
});

// ---- live jobs ----
export const LiveJob = z
  .object({
    id: z.string(),
    yaml_id: z.string(),
    project_id: z.string(),
    multi: z.boolean(),
    tags: z.array(z.string()),
    raw_id: z.string().nullable().optional(),
  })
  .meta({ id: 'FlowLiveJob' });
export type LiveJobWire = z.infer<typeof LiveJob>;
export const LiveJobCreate = z.object({
  project_id: z.string().min(1),
  yaml_id: z.string().min(1).max(256),
  multi: z.boolean().default(false),
  tags: z.array(z.string()).default([]),
  raw_id: z.string().nullish(),
});

// ---- attempts ----
export const ConfigsMeta = z.object({
  workspace: z.string(),
  flow_config_id: z.string(),
  project_config_id: z.string().nullable().optional(),
  action_config_ids: StringMap.default({}),
});
export type ConfigsMeta = z.infer<typeof ConfigsMeta>;
export const Attempt = z
  .object({
    id: z.string(),
    bake_id: z.string(),
    number: z.number().int(),
    created_at: z.string(),
    result: TaskStatus,
    configs_meta: ConfigsMeta,
    executor_id: z.string().nullable().optional(),
  })
  .meta({ id: 'FlowAttempt' });
export type AttemptWire = z.infer<typeof Attempt>;
export const AttemptCreate = z.object({
  bake_id: z.string().min(1),
  number: z.number().int().min(1),
  result: TaskStatus,
  configs_meta: ConfigsMeta,
  executor_id: z.string().nullish(),
});

// ---- bakes ----
export const GitInfo = z.object({ sha: z.string(), branch: z.string(), tags: z.array(z.string()) });
export const BakeMeta = z.object({ git_info: GitInfo.nullable().optional() });
/** `{"": {"first": [], "left": ["first"]}}`: per (dot-joined) prefix, each task and its needs. */
export const BakeGraphs = z.record(z.string(), z.record(z.string(), z.array(z.string())));
export type BakeGraphs = z.infer<typeof BakeGraphs>;
export const Bake = z
  .object({
    id: z.string(),
    project_id: z.string(),
    name: z.string().nullable(),
    batch: z.string(),
    tags: z.array(z.string()),
    created_at: z.string(),
    graphs: BakeGraphs,
    params: StringMap.nullable(),
    meta: BakeMeta,
    last_attempt: Attempt.nullable().optional(),
  })
  .meta({ id: 'FlowBake' });
export type BakeWire = z.infer<typeof Bake>;
export const BakeCreate = z.object({
  project_id: z.string().min(1),
  batch: z.string().min(1).max(256),
  graphs: BakeGraphs,
  params: StringMap.nullish(),
  name: z.string().max(256).nullish(),
  tags: z.array(z.string()).default([]),
  meta: BakeMeta.default({ git_info: null }),
});

// ---- config files ----
export const ConfigFile = z
  .object({ id: z.string(), bake_id: z.string(), filename: z.string(), content: z.string() })
  .meta({ id: 'FlowConfigFile' });
export const ConfigFileCreate = z.object({
  bake_id: z.string().min(1),
  filename: z.string().min(1).max(1024),
  content: z.string().max(1024 * 1024),
});

// ---- tasks ----
export const TaskStatusItem = z.object({ created_at: z.string(), status: TaskStatus });
export const Task = z
  .object({
    id: z.string(),
    yaml_id: z.string(),
    attempt_id: z.string(),
    raw_id: z.string().nullable().optional(),
    outputs: StringMap.nullable(),
    state: StringMap.nullable(),
    statuses: z.array(TaskStatusItem),
  })
  .meta({ id: 'FlowTask' });
export type TaskWire = z.infer<typeof Task>;
export const TaskCreate = z.object({
  attempt_id: z.string().min(1),
  yaml_id: z.string().min(1).max(1024),
  raw_id: z.string().nullish(),
  outputs: StringMap.nullish(),
  state: StringMap.nullish(),
  statuses: z.array(TaskStatusItem).min(1),
});

// ---- cache entries ----
export const CacheEntry = z
  .object({
    id: z.string(),
    project_id: z.string(),
    batch: z.string(),
    task_id: z.string(),
    key: z.string(),
    created_at: z.string(),
    outputs: StringMap,
    state: StringMap,
    raw_id: z.string().nullable().optional(),
  })
  .meta({ id: 'FlowCacheEntry' });
export type CacheEntryWire = z.infer<typeof CacheEntry>;
export const CacheEntryCreate = z.object({
  project_id: z.string().min(1),
  batch: z.string().min(1),
  task_id: z.string().min(1),
  key: z.string().min(1),
  outputs: StringMap.default({}),
  state: StringMap.default({}),
  raw_id: z.string().nullish(),
});

// ---- bake images ----
export const BakeImage = z
  .object({
    id: z.string(),
    bake_id: z.string(),
    ref: z.string(),
    status: BakeImageStatus,
    yaml_defs: z.array(z.string()),
    context_on_storage: z.string().nullable().optional(),
    dockerfile_rel: z.string().nullable().optional(),
    builder_job_id: z.string().nullable().optional(),
    prefix: z.string().optional(),
    yaml_id: z.string().optional(),
  })
  .meta({ id: 'FlowBakeImage' });
export const BakeImageCreate = z.object({
  bake_id: z.string().min(1),
  ref: z.string().min(1),
  status: BakeImageStatus.default('pending'),
  yaml_defs: z.array(z.string()).default([]),
  context_on_storage: z.string().nullish(),
  dockerfile_rel: z.string().nullish(),
  builder_job_id: z.string().nullish(),
  prefix: z.string().optional(),
  yaml_id: z.string().optional(),
});
export const BakeImagePatch = z.object({
  status: BakeImageStatus.optional(),
  builder_job_id: z.string().nullish(),
});

// ---- Orrery's own: bakes with no CLI ----
/** A batch flow's params as the engine reads them (for the Start bake form). */
export const BatchParam = z.object({
  name: z.string(),
  default: z.string().nullable(),
  descr: z.string().nullable(),
});
export type BatchParam = z.infer<typeof BatchParam>;

/** Where the batch YAML comes from: pasted, or a file of the project's storage. */
const BatchSource = z.union([
  z.object({
    content: z
      .string()
      .min(1)
      .max(1024 * 1024),
  }),
  z.object({ file: z.string().min(1).max(4096) }),
]);

/** `POST flow/bakes/params`: the params a batch file declares, or the error that refuses it. */
export const BatchInspect = z.intersection(
  BatchSource,
  z.object({
    cluster: z.string().min(1),
    org_name: z.string().nullish(),
    project_name: z.string().min(1),
  }),
);
export const BatchInfo = z.object({
  batch: z.string(),
  title: z.string().nullable(),
  params: z.array(BatchParam),
  tasks: z.number().int(),
});

/**
 * `POST flow/bakes/start`: a bake run by Orrery's engine. The flow (the flow project) is made on
 * first use, as the CLI does; `batch` is the file's name without `.yml` when a file is given.
 */
export const BakeStart = z.intersection(
  BatchSource,
  z.object({
    cluster: z.string().min(1),
    org_name: z.string().nullish(),
    project_name: z.string().min(1),
    flow_name: z.string().min(1).max(256),
    batch: z.string().min(1).max(256).optional(),
    params: StringMap.default({}),
    name: z.string().max(256).nullish(),
    tags: z.array(z.string()).default([]),
  }),
);
export type BakeStart = z.infer<typeof BakeStart>;
