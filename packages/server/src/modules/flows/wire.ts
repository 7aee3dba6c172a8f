import {
  flowTime,
  type AttemptWire,
  type BakeWire,
  type CacheEntryWire,
  type FlowProjectWire,
  type LiveJobWire,
  type TaskWire,
} from '@orrery/contract';
import type { z } from 'zod';
import type { BakeImage, ConfigFile } from '@orrery/contract';
import type {
  AttemptRow,
  BakeImageRow,
  BakeRow,
  CacheEntryRow,
  ConfigFileRow,
  FlowProjectRow,
  LiveJobRow,
  TaskRow,
} from './store.js';

/** The flow API's objects (docs/flows.md) of the stored rows. */
export const projectWire = (r: FlowProjectRow): FlowProjectWire => ({
  id: r.id,
  name: r.name,
  owner: r.owner,
  cluster: r.clusterName,
  // The client sends no org_name for a project outside any organization, and reads none back.
  org_name: r.orgName === '' ? null : r.orgName,
  project_name: r.projectName,
});

export const liveJobWire = (r: LiveJobRow): LiveJobWire => ({
  id: r.id,
  yaml_id: r.yamlId,
  project_id: r.projectId,
  multi: r.multi,
  tags: r.tags,
  raw_id: r.rawId,
});

export const attemptWire = (r: AttemptRow): AttemptWire => ({
  id: r.id,
  bake_id: r.bakeId,
  number: r.number,
  created_at: flowTime(r.createdAt),
  result: r.result,
  // The client reads all four keys.
  configs_meta: {
    workspace: r.configsMeta.workspace,
    flow_config_id: r.configsMeta.flow_config_id,
    project_config_id: r.configsMeta.project_config_id ?? null,
    action_config_ids: r.configsMeta.action_config_ids ?? {},
  },
  executor_id: r.executorId,
});

/**
 * A bake; `last` is its last attempt when the caller asked for it (`fetch_last_attempt=1`):
 * null for a bake with none yet, left out when not asked.
 */
export const bakeWire = (r: BakeRow, last?: AttemptRow | null): BakeWire => ({
  id: r.id,
  project_id: r.projectId,
  name: r.name,
  batch: r.batch,
  tags: r.tags,
  created_at: flowTime(r.createdAt),
  graphs: r.graphs,
  params: r.params,
  meta: { git_info: (r.meta.git_info ?? null) as BakeWire['meta']['git_info'] },
  ...(last === undefined ? {} : { last_attempt: last && attemptWire(last) }),
});

export const configFileWire = (r: ConfigFileRow): z.infer<typeof ConfigFile> => ({
  id: r.id,
  bake_id: r.bakeId,
  filename: r.filename,
  content: r.content,
});

export const taskWire = (r: TaskRow): TaskWire => ({
  id: r.id,
  yaml_id: r.yamlId,
  attempt_id: r.attemptId,
  raw_id: r.rawId,
  outputs: r.outputs,
  state: r.state,
  statuses: r.statuses,
});

export const cacheEntryWire = (r: CacheEntryRow): CacheEntryWire => ({
  id: r.id,
  project_id: r.projectId,
  batch: r.batch,
  task_id: r.taskId,
  key: r.key,
  created_at: flowTime(r.createdAt),
  outputs: r.outputs,
  state: r.state,
  raw_id: r.rawId,
});

export const bakeImageWire = (r: BakeImageRow): z.infer<typeof BakeImage> => ({
  id: r.id,
  bake_id: r.bakeId,
  ref: r.ref,
  status: r.status as z.infer<typeof BakeImage>['status'],
  yaml_defs: r.yamlDefs,
  context_on_storage: r.contextOnStorage,
  dockerfile_rel: r.dockerfileRel,
  builder_job_id: r.builderJobId,
  // Deprecated keys, sent only by old clients: echoed when they were.
  ...(r.prefix === null ? {} : { prefix: r.prefix }),
  ...(r.yamlId === null ? {} : { yaml_id: r.yamlId }),
});
