import type { TaskStatus } from '@orrery/contract';
import { BatchError } from './errors.js';
import { Context, OpenContext, own, type Scope, type Value } from './evaluate-expr.js';
import type { BatchFlow } from './parse.js';

/** Where a bake runs and what it was started with. */
export interface FlowContextInput {
  /**
   * The batch flow's id, `${{ flow.flow_id }}`: the file's `id`, else the batch's name with `-`
   * made `_`, as the client reads it.
   */
  flowId: string;
  /** The flow's name (project.yml `id`): `${{ flow.project_id }}` and `${{ project.id }}`. */
  projectId: string;
  title: string | null;
  cluster: string;
  org: string;
  project: string;
  owner: string;
  /** As given at start; defaults are applied by resolveParams. */
  params: Record<string, string>;
}

export interface NeedResult {
  result: TaskStatus;
  outputs: Record<string, string>;
}

/** The params of a bake: the given ones over the defaults; unknown or missing ones refused. */
export function resolveParams(
  flow: Pick<BatchFlow, 'params'>,
  given: Record<string, string>,
): Record<string, string> {
  const declared = new Set(flow.params.map((p) => p.name));
  for (const name of Object.keys(given)) {
    if (!declared.has(name)) throw new BatchError(`unknown param \`${name}\``, null);
  }
  const out: Record<string, string> = {};
  for (const p of flow.params) {
    const v = Object.hasOwn(given, p.name) ? given[p.name] : p.default;
    if (v === null)
      throw new BatchError(`param \`${p.name}\` has no default and was not given`, null);
    out[p.name] = v;
  }
  return out;
}

/** The contexts every field sees: `params`, `flow`, `project` and the task's `matrix`. */
export function baseContexts(
  ctx: FlowContextInput,
  params: Record<string, string>,
  matrix: Record<string, string>,
): Record<string, Context> {
  return {
    params: new Context('params', params),
    flow: new Context('flow', {
      flow_id: ctx.flowId,
      project_id: ctx.projectId,
      title: ctx.title,
    }),
    project: new Context('project', {
      id: ctx.projectId,
      owner: ctx.owner,
      project_name: ctx.project,
    }),
    matrix: new Context('matrix', matrix),
  };
}

/**
 * The `needs` context. When planning (`results` null) the outputs are not known yet: any name
 * reads, but the need itself must be one of the task's.
 */
export function needsScope(
  base: Record<string, Context>,
  needIds: string[],
  results: Record<string, NeedResult> | null,
): Scope {
  const entries: Record<string, Value> = {};
  const needResults: Record<string, TaskStatus> = {};
  for (const id of needIds) {
    const r = results ? own(results, id) : { result: 'succeeded' as const, outputs: {} };
    if (!r) throw new BatchError(`no result given for need \`${id}\``, null);
    const path = `needs.${id}`;
    const outputs = results
      ? new Context(`${path}.outputs`, r.outputs)
      : new OpenContext(`${path}.outputs`, {});
    entries[id] = new Context(path, { result: r.result, outputs });
    needResults[id] = r.result;
  }
  return { contexts: { ...base, needs: new Context('needs', entries) }, needResults };
}
