import {
  KILLABLE_RESULTS,
  MAX_TAG_LENGTH,
  flowIdTag,
  flowJobsTag,
  type BakeStart,
  type ConfigsMeta,
} from '@orrery/contract';
import type { Principal } from '../../../auth/principal.js';
import type { Db } from '../../../db/client.js';
import { HttpError, conflict, invalid } from '../../../http/errors.js';
import { isUniqueViolation } from '../../../db/errors.js';
import {
  BatchError,
  checkBakeSize,
  parseBatch,
  planBakeInTurns,
  resolveParams,
  type BakeLimits,
} from '../batch/index.js';
import {
  attemptByNumber,
  insertAttempt,
  insertBake,
  insertConfigFile,
  insertProject,
  insertTask,
  projectByName,
  tasksOf,
  type BakeRow,
  type FlowPlace,
} from '../store.js';
import { flowContext, loadBake } from './bake.js';
import { setBakeCreator } from './store.js';

/** The executor id of attempts Orrery's engine drives (the client sets its own). */
export const ENGINE_EXECUTOR = 'orrery-engine';

/** The batch file refused: a 400 whose message names the line, as the parser wrote it. */
const refusalOf = (e: unknown) =>
  e instanceof BatchError ? new HttpError('bad_request', e.message) : e;

/** The config's bake limits, as the batch planner takes them. */
export const bakeLimitsOf = (c: { maxBakeTasks: number; maxMatrix: number }): BakeLimits => ({
  maxTasks: c.maxBakeTasks,
  maxMatrix: c.maxMatrix,
});

export function batchRefusal<T>(fn: () => T): T {
  try {
    return fn();
  } catch (e) {
    throw refusalOf(e);
  }
}

/**
 * The flow's and the batch's names become tags of every job of the bake (`project:…`,
 * `flow:…`): names the jobs API would refuse as tags are refused here, before anything runs.
 */
function checkTagNames(flowName: string, batchName: string) {
  const named = [
    ['flow_name', 'flow', flowJobsTag(flowName)],
    ['batch', 'batch', `flow:${flowIdTag(batchName)}`],
  ] as const;
  for (const [field, what, tag] of named) {
    if (/\s/.test(tag)) throw invalid(field, `The ${what} name may not contain spaces`);
    if (tag.length > MAX_TAG_LENGTH) {
      throw invalid(field, `The ${what} name is too long for the tag ${tag.split(':')[0]}:`);
    }
  }
}

/** The flow of that name in the place, made (owned by the caller) on first use as the CLI does. */
async function flowOf(db: Db, place: FlowPlace, name: string, owner: string) {
  const found = await projectByName(db, place, name);
  if (found) return found;
  try {
    return await insertProject(db, place, name, owner);
  } catch (e) {
    // Another bake made it in between.
    if (!isUniqueViolation(e)) throw e;
    return (await projectByName(db, place, name))!;
  }
}

/**
 * `flow/bakes/start`: the bake as the CLI records one (the two config files, attempt 1), but
 * for Orrery's engine to run. Nothing is recorded when the batch file or its params are refused.
 */
export async function startBake(
  db: Db,
  caller: Principal,
  place: FlowPlace,
  req: BakeStart,
  content: string,
  batchName: string,
  limits: BakeLimits,
) {
  checkTagNames(req.flow_name, batchName);
  const batch = batchRefusal(() => parseBatch(content));
  // Before anything is made or expanded: the size is known from the file alone.
  batchRefusal(() => checkBakeSize(batch, limits));
  const params = batchRefusal(() => resolveParams(batch, req.params));
  const flow = await flowOf(db, place, req.flow_name, caller.username);
  const plan = await planBakeInTurns(
    batch,
    flowContext(flow, batch, batchName, params),
    limits,
  ).catch((e: unknown) => {
    throw refusalOf(e);
  });
  try {
    return await db.transaction(async (t) => {
      const tx = t as unknown as Db;
      const bake = await insertBake(tx, {
        projectId: flow.id,
        name: req.name ?? null,
        batch: batchName,
        tags: req.tags,
        graphs: plan.graphs,
        params,
        meta: { git_info: null },
        creatorId: caller.id,
      });
      const flowFile = await insertConfigFile(tx, {
        bakeId: bake.id,
        filename: `.apolo/${batchName}.yml`,
        content,
      });
      const projectFile = await insertConfigFile(tx, {
        bakeId: bake.id,
        filename: '.apolo/project.yml',
        content: `id: ${flow.name}\n`,
      });
      const configsMeta: ConfigsMeta = {
        workspace: '',
        flow_config_id: flowFile.id,
        project_config_id: projectFile.id,
        action_config_ids: {},
      };
      const attempt = await insertAttempt(tx, {
        bakeId: bake.id,
        number: 1,
        result: 'pending',
        configsMeta,
        executorId: ENGINE_EXECUTOR,
        engine: true,
      });
      return { bake, attempt };
    });
  } catch (e) {
    if (isUniqueViolation(e))
      throw conflict(`A bake named ${req.name} already exists in this flow`, 'name');
    throw e;
  }
}

/**
 * A new attempt of a finished bake: the succeeded and cached tasks of the last attempt are
 * copied as they were (statuses included), the others run again. The engine runs it as the
 * bake's creator, or as the caller when the bake has none (one recorded by the CLI).
 */
export async function restartBake(db: Db, caller: Principal, bake: BakeRow, limits: BakeLimits) {
  const last = await attemptByNumber(db, bake.id, -1);
  if (!last) throw conflict('The bake has no attempt to restart from');
  if (KILLABLE_RESULTS.includes(last.result)) {
    throw conflict(`The bake is still ${last.result}: restart it once it has finished`);
  }
  // A batch file recorded by the CLI may use what the engine does not run: refused now, not
  // as an attempt that fails at once.
  const loaded = await loadBake(db, last, limits).catch((e: unknown) => {
    throw refusalOf(e);
  });
  if (!loaded) throw conflict('The bake has no batch file to run again');
  const kept = (await tasksOf(db, last.id)).filter((t) => {
    const s = t.statuses.at(-1)?.status;
    return s === 'succeeded' || s === 'cached';
  });
  try {
    return await db.transaction(async (t) => {
      const tx = t as unknown as Db;
      if (!bake.creatorId) await setBakeCreator(tx, bake.id, caller.id);
      const attempt = await insertAttempt(tx, {
        bakeId: bake.id,
        number: last.number + 1,
        result: 'pending',
        configsMeta: last.configsMeta,
        executorId: ENGINE_EXECUTOR,
        engine: true,
      });
      for (const k of kept) {
        await insertTask(tx, {
          attemptId: attempt.id,
          yamlId: k.yamlId,
          rawId: k.rawId,
          outputs: k.outputs,
          state: k.state,
          statuses: k.statuses,
        });
      }
      return attempt;
    });
  } catch (e) {
    // Two restarts at once: the second finds the number taken.
    if (isUniqueViolation(e)) throw conflict('The bake was restarted meanwhile');
    throw e;
  }
}
