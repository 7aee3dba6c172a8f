import type { BakeGraphs } from '@orrery/contract';
import { BatchError, atLine } from './errors.js';
import { checkTemplate, evalTemplate, toText } from './evaluate-expr.js';
import { baseContexts, needsScope, resolveParams, type FlowContextInput } from './contexts.js';
import type { BatchFlow, MatrixAxis, TaskDef } from './parse.js';
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
 * against the names it may use, and the order the needs impose.
 */
export function planBake(flow: BatchFlow, ctx: FlowContextInput): BakePlan {
  const params = resolveParams(flow, ctx.params);
  const planned = flow.tasks.flatMap((def) => expand(def, ctx, params));
  const byId = new Map<string, PlannedTask>();
  for (const t of planned) {
    if (byId.has(t.id)) throw new BatchError(`duplicate task id \`${t.id}\``, t.def.id.line);
    byId.set(t.id, t);
  }
  for (const t of planned) {
    t.needs.forEach((need, i) => {
      if (!byId.has(need)) {
        const line = t.def.needs[i]?.line ?? t.def.line;
        throw new BatchError(`task \`${t.id}\` needs \`${need}\`, which is not a task`, line);
      }
    });
    const scope = needsScope(baseContexts(ctx, params, t.matrix), t.needs, null);
    for (const f of evaluatedFields(t.def)) {
      atLine(f.line, `task \`${t.id}\``, () => checkTemplate(f.tpl, scope));
    }
  }
  const tasks = topological(planned, byId);
  return { tasks, graphs: { '': Object.fromEntries(tasks.map((t) => [t.id, [...t.needs]])) } };
}

/** One planned task per combination of the matrix (one for a task without a matrix). */
function expand(def: TaskDef, ctx: FlowContextInput, params: Record<string, string>) {
  if (def.matrix.length > 0 && def.id.tpl.every((p) => typeof p === 'string')) {
    throw new BatchError(
      `task \`${def.id.text}\` has a matrix: its id needs a matrix expression, such as \`${def.id.text}_\${{ matrix.${def.matrix[0].name} }}\``,
      def.id.line,
    );
  }
  return combinations(def.matrix).map((matrix): PlannedTask => {
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
}

/** The product of the matrix's lists, the first axis varying slowest. */
function combinations(axes: MatrixAxis[]): Record<string, string>[] {
  let out: Record<string, string>[] = [{}];
  for (const axis of axes) {
    out = out.flatMap((c) => axis.values.map((v) => ({ ...c, [axis.name]: toText(v) })));
  }
  return out;
}

function topological(tasks: PlannedTask[], byId: Map<string, PlannedTask>): PlannedTask[] {
  const done = new Set<string>();
  const order: PlannedTask[] = [];
  const visiting: string[] = [];
  const visit = (t: PlannedTask) => {
    if (done.has(t.id)) return;
    const at = visiting.indexOf(t.id);
    if (at >= 0) {
      const cycle = [...visiting.slice(at), t.id].map((id) => `\`${id}\``).join(' → ');
      throw new BatchError(`the needs make a cycle: ${cycle}`, t.def.line);
    }
    visiting.push(t.id);
    for (const need of t.needs) visit(byId.get(need)!);
    visiting.pop();
    done.add(t.id);
    order.push(t);
  };
  tasks.forEach(visit);
  return order;
}
