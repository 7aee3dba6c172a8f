import { JobCreateFromPreset, flowIdTag, flowJobsTag } from '@orrery/contract';
import type { NewJob } from '../../jobs/service.js';
import type { TaskRun } from '../batch/index.js';
import type { FlowProjectRow } from '../store.js';
import type { LoadedBake } from './bake.js';
import type { Db } from '../../../db/client.js';
import { jobTagged } from '../../jobs/store.js';

/** What the engine adds to a job of a task so that a resumed engine finds it (see `jobOfTask`). */
export const taskTag = (taskId: string) => `flow_task:${taskId}`;

/** The job created for a task record, whether or not its id reached the record. */
export const jobOfTask = (db: Db, taskId: string) => jobTagged(db, taskTag(taskId));

/**
 * The batch flow's id as the client reads it: the file's `id`, else its name with `-` made `_`
 * (the `flow:` tag and `${{ flow.flow_id }}`).
 */
export const batchFlowId = (fileId: string | null, batchName: string) =>
  fileId ?? batchName.replace(/-/g, '_');

/**
 * The tags the official client puts on a task's job, in its case and form (`_id2tag`: `_` made
 * `-`, lower case), so that its `ps`, the jobs list's `flowName` filter and the console's
 * real-time jobs find them; `bake_id:` as it writes it, and the engine's own for resuming.
 */
export const taskJobTags = (
  { bake, batch, flow }: Pick<LoadedBake, 'bake' | 'batch' | 'flow'>,
  yamlId: string,
  taskId: string,
) => [
  `flow:${flowIdTag(batchFlowId(batch.id, bake.batch))}`,
  `task:${flowIdTag(yamlId)}`,
  flowJobsTag(flow.name),
  `bake_id:${bake.id}`,
  taskTag(taskId),
];

/**
 * `POST /api/v1/jobs?from_preset` of a task, as the `apolo-flow` client sends
 * it: the task's preset (the cluster's first when it names none), shared
 * memory, the job's config passed in, the evaluated command, env, volumes, name and life span,
 * and waiting for the jobs quota; and Orrery's `nodes`, the job's workers, when the task asks.
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
    // "Within the project's quota": a full quota holds the task's job pending until a running
    // job ends (the jobs service's QuotaExhausted), where the API would refuse it.
    wait_for_jobs_quota: true,
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
    ...(run.nodes ? { nodes: run.nodes } : {}),
    ...(run.lifeSpanSeconds ? { max_run_time_minutes: Math.ceil(run.lifeSpanSeconds / 60) } : {}),
  });
  return { kind: 'preset', body };
}
