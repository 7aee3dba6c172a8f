import { JobCreateFromPreset } from '@orrery/contract';
import type { NewJob } from '../../jobs/service.js';
import type { TaskRun } from '../batch/index.js';
import type { BakeRow, FlowProjectRow } from '../store.js';
import { taskTag } from './queries.js';

/** The wire's `project:` tag: the flow's id with `_` turned into `-`, as the client sets it. */
export const flowProjectTag = (flowName: string) => `project:${flowName.replace(/_/g, '-')}`;

/** The tags the official client puts on a task's job, and the engine's own for resuming. */
export const taskJobTags = (
  bake: BakeRow,
  flow: FlowProjectRow,
  yamlId: string,
  taskId: string,
) => [
  `flow:${bake.batch}`,
  `task:${yamlId}`,
  flowProjectTag(flow.name),
  `bake_id:${bake.id}`,
  taskTag(taskId),
];

/**
 * `POST /api/v1/jobs?from_preset` of a task, as the client sends it (apolo-flow-wire "What a bake
 * asks of the jobs API"): the task's preset (the cluster's first when it names none), shared
 * memory, the job's config passed in, the evaluated command, env, volumes, name and life span.
 * Checked by the jobs API's own schema, so that a task the API would refuse fails with its
 * message.
 */
export function taskJobRequest(
  run: TaskRun,
  flow: FlowProjectRow,
  tags: string[],
): NewJob & { kind: 'preset' } {
  const byScheme = (scheme: string) => run.volumes.filter((v) => v.uri.startsWith(`${scheme}:`));
  const body = JobCreateFromPreset.parse({
    cluster_name: flow.clusterName,
    org_name: flow.orgName,
    project_name: flow.projectName,
    ...(run.preset ? { preset_name: run.preset } : {}),
    resources: { shm: true },
    pass_config: true,
    image: run.image,
    command: run.command,
    env: run.env,
    secret_env: run.secretEnv,
    volumes: byScheme('storage').map((v) => ({
      src_storage_uri: v.uri,
      dst_path: v.dst,
      read_only: v.readOnly,
    })),
    disk_volumes: byScheme('disk').map((v) => ({
      src_disk_uri: v.uri,
      dst_path: v.dst,
      read_only: v.readOnly,
    })),
    secret_volumes: byScheme('secret').map((v) => ({
      src_secret_uri: v.uri,
      dst_path: v.dst,
    })),
    tags,
    ...(run.name ? { name: run.name } : {}),
    ...(run.lifeSpanSeconds ? { max_run_time_minutes: Math.ceil(run.lifeSpanSeconds / 60) } : {}),
  });
  return { kind: 'preset', body };
}
