import { principalOf } from '../../../auth/principal-hook.js';
import { jobUri, DEFAULT_CLUSTER } from '@orrery/contract';
import { allows, grantsOf } from '../../../auth/permissions.js';
import { forbidden } from '../../../http/errors.js';
import { userById } from '../../users/store.js';
import type { Db } from '../../../db/client.js';
import type { NewJob } from '../../jobs/service.js';
import {
  parseBatch,
  planBakeInTurns,
  type BakeLimits,
  type BakePlan,
  type BatchFlow,
  type FlowContextInput,
} from '../batch/index.js';
import {
  bakeById,
  configFileById,
  projectById,
  type AttemptRow,
  type BakeRow,
  type FlowProjectRow,
} from '../store.js';
import type { StepDeps } from './step.js';
import { batchFlowId } from './jobs.js';

/** An engine attempt's bake with what its tasks are evaluated against, loaded once per attempt. */
export interface LoadedBake {
  bake: BakeRow;
  /** The flow (the wire's "project"). */
  flow: FlowProjectRow;
  batch: BatchFlow;
  context: FlowContextInput;
  plan: BakePlan;
}

/** The `${{ flow }}` and `${{ project }}` context of a bake of a flow, as the client sets it. */
export const flowContext = (
  flow: FlowProjectRow,
  batch: BatchFlow,
  batchName: string,
  params: Record<string, string>,
): FlowContextInput => ({
  flowId: batchFlowId(batch.id, batchName),
  projectId: flow.name,
  title: batch.title,
  cluster: flow.clusterName,
  org: flow.orgName,
  project: flow.projectName,
  owner: flow.owner,
  params,
});

/**
 * The bake of an attempt and its plan, from the batch file recorded with the attempt. Null when
 * the bake or its files are gone (deleted with their flow). A bake beyond `limits` (recorded by
 * the CLI, or before the limits were lowered) is refused as the parser refuses a file.
 */
export async function loadBake(
  db: Db,
  attempt: AttemptRow,
  limits: BakeLimits,
): Promise<LoadedBake | null> {
  const bake = await bakeById(db, attempt.bakeId);
  const flow = bake && (await projectById(db, bake.projectId));
  const file = await configFileById(db, attempt.configsMeta.flow_config_id);
  if (!bake || !flow || !file) return null;
  const batch = parseBatch(file.content);
  const context = flowContext(flow, batch, bake.batch, bake.params ?? {});
  return { bake, flow, batch, context, plan: await planBakeInTurns(batch, context, limits) };
}

/**
 * Submits a task's job as the bake's creator, with their grants as they are now: one who lost
 * access since gets the jobs API's refusal, which fails the task.
 */
export async function runAsCreator(
  deps: StepDeps,
  bake: BakeRow,
  req: NewJob & { kind: 'preset' },
) {
  const db = deps.ctx.db;
  const user = bake.creatorId ? await userById(db, bake.creatorId) : null;
  if (!user) throw new Error('The user who started this bake no longer exists');
  const principal = principalOf(user);
  const grants = await grantsOf(db, principal);
  // What the jobs API's route checks before admission.
  const {
    cluster_name: cluster = DEFAULT_CLUSTER,
    org_name: org,
    project_name: project,
  } = req.body;
  if (!allows(grants, jobUri(cluster, org, project), 'write')) {
    throw forbidden(`${user.username} may no longer run jobs in the project ${org}/${project}`);
  }
  return deps.jobs.create(principal, grants, req);
}
