import { MAX_JOB_NODES } from '@orrery/contract';
import { BatchError, atLine } from './errors.js';
import { evalTemplate, passed, toText, type Scope, type Value } from './evaluate-expr.js';
import type { Field, TaskDef } from './parse.js';
import {
  baseContexts,
  needsScope,
  resolveParams,
  type FlowContextInput,
  type NeedResult,
} from './contexts.js';
import { parseVolume, secretUri, type TaskVolume } from './volumes.js';
import { parseLifeSpan } from './life-span.js';

export interface PlannedTask {
  /** The final yaml id, matrix expressions evaluated (`fan_1`). */
  id: string;
  needs: string[];
  matrix: Record<string, string>;
  def: TaskDef;
}

/** A task evaluated for one bake: what the engine turns into a job. */
export interface TaskRun {
  /** `enable` evaluated; by default every need succeeded or was cached. */
  enabled: boolean;
  image: string;
  /** `cmd` as given; `bash` wrapped as `bash -euo pipefail -c '<script>'`. */
  command: string;
  env: Record<string, string>;
  /** NAME → secret://C/O/P/key for values written `secret:key`. */
  secretEnv: Record<string, string>;
  volumes: TaskVolume[];
  preset: string | null;
  lifeSpanSeconds: number | null;
  name: string | null;
  /** The job's workers when the task asks for them (`nodes`); absent, one (and the cache key
   * of a task without it is what it was before the key existed). */
  nodes?: number;
  cache: { enabled: boolean; lifeSpanSeconds: number };
}

/** Batch tasks are cached for 14 days unless the file says otherwise. */
export const DEFAULT_CACHE_SECONDS = 14 * 24 * 3600;

/** Every field a task evaluates, for the checks made when a bake is planned. */
export function evaluatedFields(def: TaskDef): Field[] {
  const opt = [
    def.title,
    def.image,
    def.cmd,
    def.bash,
    def.preset,
    def.lifeSpan,
    def.name,
    def.nodes,
    def.cache.lifeSpan,
    def.enable,
  ];
  return [
    ...opt.filter((f): f is Field => f !== null),
    ...def.env.map((e) => e.value),
    ...def.volumes,
  ];
}

/** Single-quotes a string for a POSIX shell: `'` becomes `'\''`. */
export const shellQuote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

/** A task evaluated against the results and outputs of its needs. */
export function evaluateTask(
  t: PlannedTask,
  ctx: FlowContextInput,
  needs: Record<string, NeedResult>,
): TaskRun {
  const def = t.def;
  const where = `task \`${t.id}\``;
  const params = resolveParams(def, ctx.params);
  const scope = atLine(null, where, () =>
    needsScope(baseContexts(ctx, params, t.matrix), t.needs, needs),
  );
  const value = (f: Field): Value => atLine(f.line, where, () => evalTemplate(f.tpl, scope));
  const text = (f: Field) => toText(value(f));
  const optText = (f: Field | null) => (f ? text(f) || null : null);

  const enabled = enableOf(def.enable, value, scope, where);
  if (!enabled) {
    // A task that will not run is not evaluated further: its needs' outputs may not exist.
    return {
      enabled,
      image: '',
      command: '',
      env: {},
      secretEnv: {},
      volumes: [],
      preset: null,
      lifeSpanSeconds: null,
      name: null,
      cache: { enabled: false, lifeSpanSeconds: 0 },
    };
  }
  const place = { cluster: ctx.cluster, org: ctx.org, project: ctx.project };
  const env: Record<string, string> = {};
  const secretEnv: Record<string, string> = {};
  for (const { name, value: f } of def.env) {
    const v = text(f);
    if (v.startsWith('secret:')) secretEnv[name] = atLine(f.line, where, () => secretUri(v, place));
    else env[name] = v;
  }
  const seconds = (f: Field | null) =>
    f ? atLine(f.line, where, () => parseLifeSpan(text(f))) : null;
  const required = (f: Field, what: string) => {
    const v = text(f);
    if (!v.trim()) throw new BatchError(`${where}: \`${what}\` is empty`, f.line);
    return v;
  };
  return {
    enabled,
    image: required(def.image, 'image'),
    command: def.cmd
      ? required(def.cmd, 'cmd')
      : `bash -euo pipefail -c ${shellQuote(required(def.bash!, 'bash'))}`,
    env,
    secretEnv,
    volumes: def.volumes.map((f) => atLine(f.line, where, () => parseVolume(text(f), place))),
    preset: optText(def.preset),
    lifeSpanSeconds: seconds(def.lifeSpan),
    name: optText(def.name),
    ...(def.nodes ? { nodes: workersOf(text(def.nodes), def.nodes.line, where) } : {}),
    cache: {
      enabled: def.cache.strategy === 'default',
      lifeSpanSeconds: seconds(def.cache.lifeSpan) ?? DEFAULT_CACHE_SECONDS,
    },
  };
}

/** `nodes` evaluated: a whole number of workers the jobs API takes (1 to MAX_JOB_NODES). */
function workersOf(v: string, line: number, where: string): number {
  const n = /^\s*\d+\s*$/.test(v) ? Number(v) : NaN;
  if (!(n >= 1 && n <= MAX_JOB_NODES)) {
    throw new BatchError(
      `${where}: \`nodes\` must be a whole number of workers from 1 to ${MAX_JOB_NODES}, not ${JSON.stringify(v)}`,
      line,
    );
  }
  return n;
}

function enableOf(
  f: Field | null,
  value: (f: Field) => Value,
  scope: Scope,
  where: string,
): boolean {
  // Without `enable`, a task runs as `success()` says: when every need passed.
  if (!f) return Object.values(scope.needResults).every(passed);
  const v = value(f);
  if (typeof v === 'boolean') return v;
  if (typeof v === 'string' && /^(true|false)$/i.test(v)) return v.toLowerCase() === 'true';
  throw new BatchError(
    `${where}: \`enable\` must be true or false, not ${JSON.stringify(toText(v))}`,
    f.line,
  );
}
