import type { BakeGraphs } from '@orrery/contract';
import { BatchError, atLine } from './errors.js';
import { checkTemplate, evalTemplate, toText } from './evaluate-expr.js';
import { baseContexts, needsScope, resolveParams, type FlowContextInput } from './contexts.js';
import type { BatchFlow, MatrixAxis, TaskDef } from './parse.js';
import { TASKS_PER_TURN, checkBakeSize, nextTurn, type BakeLimits } from './limits.js';
import { evaluatedFields, type PlannedTask } from './task.js';

export interface BakePlan {
  /** In topological order: every task after its needs, else in file order. */
  tasks: PlannedTask[];
  /** `{"": {id: [needs…]}}`, as the client posts a bake's graphs. */
  graphs: BakeGraphs;
}

const TASK_ID = /^[A-Za-z_][A-Za-z0-9_-]*$/;

/**
 * The tasks of one bake: matrices expanded, ids and needs evaluated, every expression checked
 * against the names it may use, and the order the needs impose. Refused at once when the bake
 * would be bigger than `limits` allow.
 */
export function planBake(flow: BatchFlow, ctx: FlowContextInput, limits?: BakeLimits): BakePlan {
  const steps = planSteps(flow, ctx, limits);
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
  }
}

/**
 * `planBake`, giving the event loop a turn every TASKS_PER_TURN tasks: a bake of a thousand
 * tasks is expanded and checked between other requests, not in one block of CPU.
 */
export async function planBakeInTurns(
  flow: BatchFlow,
  ctx: FlowContextInput,
  limits?: BakeLimits,
): Promise<BakePlan> {
  const steps = planSteps(flow, ctx, limits);
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
    await nextTurn();
  }
}

/** The planning, pausing (`yield`) every TASKS_PER_TURN tasks for the caller to give a turn. */
function* planSteps(
  flow: BatchFlow,
  ctx: FlowContextInput,
  limits?: BakeLimits,
): Generator<void, BakePlan> {
  if (limits) checkBakeSize(flow, limits);
  const params = resolveParams(flow, ctx.params);
  let sincePause = 0;
  const planned: PlannedTask[] = [];
  for (const def of flow.tasks) {
    const tasks = expand(def, ctx, params);
    planned.push(...tasks);
    sincePause += tasks.length;
    if (sincePause >= TASKS_PER_TURN) {
      sincePause = 0;
      yield;
    }
  }
  const byId = new Map<string, PlannedTask>();
  for (const t of planned) {
    if (byId.has(t.id)) throw new BatchError(`duplicate task id \`${t.id}\``, t.def.id.line);
    byId.set(t.id, t);
  }
  for (const [i, t] of planned.entries()) {
    t.needs.forEach((need, n) => {
      if (!byId.has(need)) {
        const line = t.def.needs[n]?.line ?? t.def.line;
        throw new BatchError(
          `task \`${t.id}\` needs \`${need}\`, which is not a task${matrixHint(need, planned)}`,
          line,
        );
      }
    });
    const scope = needsScope(baseContexts(ctx, params, t.matrix), t.needs, null);
    for (const f of evaluatedFields(t.def)) {
      atLine(f.line, `task \`${t.id}\``, () => checkTemplate(f.tpl, scope));
    }
    if (i % TASKS_PER_TURN === TASKS_PER_TURN - 1) yield;
  }
  const tasks = topological(planned, byId);
  return { tasks, graphs: { '': Object.fromEntries(tasks.map((t) => [t.id, [...t.needs]])) } };
}

/** A need naming a matrix task by its written id gets the ids the matrix made. */
function matrixHint(need: string, planned: PlannedTask[]): string {
  const fanned = planned.filter((t) => t.def.matrix.length > 0 && t.def.id.text.startsWith(need));
  if (fanned.length === 0) return '';
  const ids = fanned.slice(0, 5).map((t) => `\`${t.id}\``);
  return ` (the matrix of \`${fanned[0].def.id.text}\` makes ${ids.join(', ')}${fanned.length > 5 ? ' …' : ''})`;
}

/** One planned task per combination of the matrix (one for a task without a matrix). */
function expand(def: TaskDef, ctx: FlowContextInput, params: Record<string, string>) {
  if (def.matrix.length > 0 && def.id.tpl.every((p) => typeof p === 'string')) {
    throw new BatchError(
      `task \`${def.id.text}\` has a matrix: its id needs a matrix expression, such as \`${def.id.text}_\${{ matrix.${def.matrix[0].name} }}\``,
      def.id.line,
    );
  }
  const tasks = combinations(def.matrix).map((matrix): PlannedTask => {
    const base = baseContexts(ctx, params, matrix);
    const scope = { contexts: base, needResults: {} };
    const evaluate = (f: TaskDef['id']) =>
      atLine(f.line, `task \`${def.id.text}\``, () => toText(evalTemplate(f.tpl, scope)));
    const id = evaluate(def.id);
    if (!TASK_ID.test(id) || id === '__proto__') {
      throw new BatchError(
        `bad task id \`${id}\`: letters, digits, \`_\` and \`-\`, not starting with a digit`,
        def.id.line,
      );
    }
    const needs = def.needs.map(evaluate);
    return { id, needs, matrix, def };
  });
  const ids = new Set<string>();
  for (const t of tasks) {
    if (ids.has(t.id)) {
      throw new BatchError(
        `the matrix gives two tasks the id \`${t.id}\`: use each matrix name in the id`,
        def.id.line,
      );
    }
    ids.add(t.id);
  }
  return tasks;
}

/** The product of the matrix's lists, the first axis varying slowest. */
function combinations(axes: MatrixAxis[]): Record<string, string>[] {
  let out: Record<string, string>[] = [{}];
  for (const axis of axes) {
    out = out.flatMap((c) => axis.values.map((v) => ({ ...c, [axis.name]: v })));
  }
  return out;
}

function topological(tasks: PlannedTask[], byId: Map<string, PlannedTask>): PlannedTask[] {
  const done = new Set<string>();
  const order: PlannedTask[] = [];
  for (const root of tasks) {
    if (done.has(root.id)) continue;
    // A depth-first walk on a stack of its own, linear in tasks and needs however long the
    // chains; `path` is the chain being walked, to name a cycle.
    const path = [{ t: root, next: 0 }];
    const onPath = new Set([root.id]);
    while (path.length > 0) {
      const top = path[path.length - 1];
      if (top.next < top.t.needs.length) {
        const need = byId.get(top.t.needs[top.next++])!;
        if (done.has(need.id)) continue;
        if (onPath.has(need.id)) {
          const from = path.findIndex((f) => f.t.id === need.id);
          const cycle = [...path.slice(from).map((f) => f.t.id), need.id];
          throw new BatchError(
            `the needs make a cycle: ${cycle.map((id) => `\`${id}\``).join(' → ')}`,
            need.def.line,
          );
        }
        path.push({ t: need, next: 0 });
        onPath.add(need.id);
      } else {
        path.pop();
        onPath.delete(top.t.id);
        done.add(top.t.id);
        order.push(top.t);
      }
    }
  }
  return order;
}
