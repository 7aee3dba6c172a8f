import type { TaskStatus } from '@orrery/contract';
import { BatchError } from './errors.js';
import type { BinOp, Expr, Template } from './expr.js';

/**
 * A named context (`params`, `needs.first.outputs`, …). Reading a name it does not have is an
 * error that names the whole path, unlike a plain object from `fromJSON`, which answers null.
 */
export class Context {
  constructor(
    readonly path: string,
    readonly entries: Record<string, Value>,
  ) {}
  get(key: string): Value {
    const v = own(this.entries, key);
    if (v === undefined) throw new BatchError(`unknown name \`${this.path}.${key}\``, null);
    return v;
  }
}
/** A record's own entry: names from a file must never reach `Object.prototype`. */
export const own = <T>(record: Record<string, T>, key: string): T | undefined =>
  Object.hasOwn(record, key) ? record[key] : undefined;

/** A context whose names are not known before the bake runs (a need's outputs, when planning). */
export class OpenContext extends Context {
  override get(): Value {
    return null;
  }
}
export type Value = string | number | boolean | null | Value[] | Context | { [k: string]: Value };

/** What an expression can see: its contexts by name and its needs' results for `success()`. */
export interface Scope {
  contexts: Record<string, Context>;
  needResults: Record<string, TaskStatus>;
}

/** Results a need counts as passed with: a cached task is as good as a succeeded one. */
export const passed = (s: TaskStatus) => s === 'succeeded' || s === 'cached';

/** The functions and the number of arguments each takes ([min, max]). */
export const FUNCTIONS: Record<string, [number, number]> = {
  success: [0, Infinity],
  failure: [0, Infinity],
  always: [0, 0],
  format: [1, Infinity],
  fromJSON: [1, 1],
  from_json: [1, 1],
  toJSON: [1, 1],
  to_json: [1, 1],
};

export function evalExpr(e: Expr, scope: Scope): Value {
  switch (e.k) {
    case 'lit':
      return e.v;
    case 'name': {
      const c = own(scope.contexts, e.name);
      if (!c) throw new BatchError(`unknown name \`${e.name}\``, null);
      return c;
    }
    case 'prop':
      return member(evalExpr(e.obj, scope), e.key);
    case 'index': {
      const key = evalExpr(e.key, scope);
      const obj = evalExpr(e.obj, scope);
      if (Array.isArray(obj) && typeof key === 'number') return obj[key] ?? null;
      return member(obj, toText(key));
    }
    case 'not':
      return !truthy(evalExpr(e.e, scope));
    case 'bin':
      return binary(e.op, e.l, e.r, scope);
    case 'call':
      return call(e.fn, e.args, scope);
  }
}

function member(obj: Value, key: string): Value {
  if (obj instanceof Context) return obj.get(key);
  if (obj && typeof obj === 'object' && !Array.isArray(obj)) {
    return Object.hasOwn(obj, key) ? obj[key] : null;
  }
  throw new BatchError(`cannot read \`${key}\` of ${describe(obj)}`, null);
}

function binary(op: BinOp, l: Expr, r: Expr, scope: Scope): Value {
  if (op === '&&') {
    const a = evalExpr(l, scope);
    return truthy(a) ? evalExpr(r, scope) : a;
  }
  if (op === '||') {
    const a = evalExpr(l, scope);
    return truthy(a) ? a : evalExpr(r, scope);
  }
  const a = evalExpr(l, scope);
  const b = evalExpr(r, scope);
  if (op === '==') return equal(a, b);
  if (op === '!=') return !equal(a, b);
  const [x, y] = comparable(a, b);
  if (op === '<') return x < y;
  if (op === '<=') return x <= y;
  if (op === '>') return x > y;
  return x >= y;
}

/** Params and outputs are text: `'1' == 1` holds, as a user comparing a param to a number means. */
function equal(a: Value, b: Value): boolean {
  if (typeof a === 'number' && typeof b === 'string') return b.trim() !== '' && Number(b) === a;
  if (typeof a === 'string' && typeof b === 'number') return equal(b, a);
  if (typeof a === 'string' && typeof b === 'string') return a === b;
  return JSON.stringify(plain(a)) === JSON.stringify(plain(b));
}

function comparable(a: Value, b: Value): [number, number] | [string, string] {
  const na = typeof a === 'number' ? a : Number(a);
  const nb = typeof b === 'number' ? b : Number(b);
  if (typeof a !== 'object' && typeof b !== 'object' && !Number.isNaN(na) && !Number.isNaN(nb)) {
    return [na, nb];
  }
  if (typeof a === 'string' && typeof b === 'string') return [a, b];
  throw new BatchError(`cannot compare ${describe(a)} with ${describe(b)}`, null);
}

function checkCall(fn: string, args: Expr[]): void {
  const arity = own(FUNCTIONS, fn);
  if (!arity) throw new BatchError(`unknown function \`${fn}\``, null);
  if (args.length < arity[0] || args.length > arity[1]) {
    throw new BatchError(`wrong number of arguments to \`${fn}()\``, null);
  }
}

function call(fn: string, args: Expr[], scope: Scope): Value {
  checkCall(fn, args);
  const values = () => args.map((a) => evalExpr(a, scope));
  switch (fn) {
    case 'always':
      return true;
    case 'success':
      return needsOf(values(), scope).every(passed);
    case 'failure':
      return needsOf(values(), scope).some((s) => s === 'failed');
    case 'format': {
      const [pattern, ...rest] = values();
      return format(toText(pattern), rest);
    }
    case 'fromJSON':
    case 'from_json':
      return fromJson(toText(values()[0]));
    default:
      return JSON.stringify(plain(values()[0]));
  }
}

/** `success('a', 'b')` looks at the named needs only; `success()` at them all. */
function needsOf(names: Value[], scope: Scope): TaskStatus[] {
  if (names.length === 0) return Object.values(scope.needResults);
  return names.map((n) => {
    const id = toText(n);
    const s = own(scope.needResults, id);
    if (!s) throw new BatchError(`\`${id}\` is not a need of this task`, null);
    return s;
  });
}

function format(pattern: string, args: Value[]): string {
  return pattern.replace(/\{\{|\}\}|\{(\d+)\}/g, (m, n: string | undefined) => {
    if (m === '{{') return '{';
    if (m === '}}') return '}';
    const i = Number(n);
    if (i >= args.length) throw new BatchError(`format: no argument {${n}}`, null);
    return toText(args[i]);
  });
}

function fromJson(text: string): Value {
  try {
    return JSON.parse(text) as Value;
  } catch {
    throw new BatchError(`fromJSON: not JSON: ${JSON.stringify(text.slice(0, 40))}`, null);
  }
}

export function plain(v: Value): unknown {
  if (v instanceof Context)
    return Object.fromEntries(Object.entries(v.entries).map(([k, x]) => [k, plain(x)]));
  if (Array.isArray(v)) return v.map(plain);
  if (v && typeof v === 'object')
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, plain(x)]));
  return v;
}

export function truthy(v: Value): boolean {
  if (v === null || v === false || v === 0 || v === '') return false;
  return true;
}

/** How a value reads inside text: booleans lowercase, null empty, objects as JSON. */
export function toText(v: Value): string {
  if (v === null) return '';
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  return JSON.stringify(plain(v));
}

function describe(v: Value): string {
  if (v instanceof Context) return `\`${v.path}\``;
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'a list';
  return typeof v === 'object' ? 'an object' : `${typeof v} ${JSON.stringify(v)}`;
}

/**
 * A string field's value: the expression's own value when the field is one expression alone
 * (so `enable: ${{ always() }}` is a boolean), else the text with each expression interpolated.
 */
export function evalTemplate(t: Template, scope: Scope): Value {
  if (t.length === 1 && typeof t[0] !== 'string') return evalExpr(t[0].expr, scope);
  return t.map((p) => (typeof p === 'string' ? p : toText(evalExpr(p.expr, scope)))).join('');
}

/**
 * Checks an expression without running it: every name and function exists, with the right
 * number of arguments, so a typo is refused when the bake is planned rather than mid-bake.
 */
export function checkExpr(e: Expr, scope: Scope): Value | undefined {
  switch (e.k) {
    case 'lit':
      return undefined;
    case 'name':
      return evalExpr(e, scope);
    case 'prop': {
      const o = checkExpr(e.obj, scope);
      return o instanceof Context ? o.get(e.key) : undefined;
    }
    case 'index':
      checkExpr(e.obj, scope);
      checkExpr(e.key, scope);
      return undefined;
    case 'not':
      checkExpr(e.e, scope);
      return undefined;
    case 'bin':
      checkExpr(e.l, scope);
      checkExpr(e.r, scope);
      return undefined;
    case 'call': {
      checkCall(e.fn, e.args);
      for (const a of e.args) checkExpr(a, scope);
      return undefined;
    }
  }
}

export function checkTemplate(t: Template, scope: Scope): void {
  for (const p of t) if (typeof p !== 'string') checkExpr(p.expr, scope);
}
