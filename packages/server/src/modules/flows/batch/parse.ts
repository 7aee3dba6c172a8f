import { LineCounter, isMap, isScalar, isSeq, parseDocument } from 'yaml';
import type { Node, Pair, YAMLMap } from 'yaml';
import { BatchError, atLine } from './errors.js';
import { hasExpressions, parseTemplate, type Template } from './expr.js';

/** One string field of a task as written, with its parsed expressions and its line. */
export interface Field {
  text: string;
  tpl: Template;
  line: number;
}
export interface MatrixAxis {
  name: string;
  /** As written: `1.0` stays `1.0`. */
  values: string[];
  line: number;
}
/** A task as written in the file; the engine passes it back to the parser and never reads it. */
export interface TaskDef {
  line: number;
  id: Field;
  title: Field | null;
  needs: Field[];
  image: Field;
  cmd: Field | null;
  bash: Field | null;
  env: { name: string; value: Field }[];
  volumes: Field[];
  preset: Field | null;
  lifeSpan: Field | null;
  name: Field | null;
  /**
   * Orrery's own key beside apolo-flow's: the task's job runs as this many workers
   * (docs/flows.md). A file without it is what the client bakes too.
   */
  nodes: Field | null;
  matrix: MatrixAxis[];
  cache: { strategy: 'default' | 'none'; lifeSpan: Field | null };
  enable: Field | null;
  /** The flow's params, so that a task evaluates alone with the defaults applied. */
  params: BatchParamDef[];
}
export interface BatchParamDef {
  name: string;
  default: string | null;
  descr: string | null;
}
export interface BatchFlow {
  id: string | null;
  title: string | null;
  params: BatchParamDef[];
  tasks: TaskDef[];
}

const NAME = /^[A-Za-z_][A-Za-z0-9_-]*$/;
const TOP_KEYS = ['kind', 'id', 'title', 'params', 'tasks'];
const TASK_KEYS = [
  'id',
  'title',
  'needs',
  'image',
  'cmd',
  'bash',
  'env',
  'volumes',
  'preset',
  'life_span',
  'name',
  'nodes',
  'strategy',
  'cache',
  'enable',
];

/** Reads a batch file; anything outside the supported subset is refused with its line. */
export function parseBatch(text: string): BatchFlow {
  const lines = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lines, uniqueKeys: true, prettyErrors: true });
  const bad = doc.errors[0];
  if (bad) {
    const message = bad.message.split('\n')[0].replace(/ at line \d+, column \d+:?$/, '');
    throw new BatchError(message, bad.linePos?.[0].line ?? null);
  }
  const r = new Reader(lines);
  const root = doc.contents;
  if (!isMap(root)) throw new BatchError('a batch file is a mapping with `kind: batch`', 1);
  const top = r.keys(root, TOP_KEYS, 'at the top level');
  const kind = top.get('kind');
  if (!kind) throw new BatchError('`kind: batch` is missing', 1);
  const kindText = r.literal(kind.value, 'kind');
  if (kindText !== 'batch') {
    throw new BatchError(`only \`kind: batch\` is supported, not \`${kindText}\``, r.line(kind));
  }
  const tasksPair = top.get('tasks');
  if (!tasksPair) throw new BatchError('`tasks` is missing', 1);
  const tasksNode = tasksPair.value as Node | null;
  if (!isSeq(tasksNode) || tasksNode.items.length === 0) {
    throw new BatchError('`tasks` must be a non-empty list', r.line(tasksPair));
  }
  const idPair = top.get('id');
  const titlePair = top.get('title');
  const paramsPair = top.get('params');
  const params = paramsPair ? r.params(paramsPair) : [];
  return {
    id: idPair ? r.literal(idPair.value, 'id') : null,
    title: titlePair ? r.literal(titlePair.value, 'title') : null,
    params,
    tasks: tasksNode.items.map((item, i) => r.task(item as Node, i, params)),
  };
}

class Reader {
  constructor(private readonly lines: LineCounter) {}

  line(node: Pair | Node | null | undefined): number | null {
    const n = node && 'key' in node ? (node.key as Node) : node;
    const at = n && 'range' in n ? n.range?.[0] : undefined;
    return at === undefined ? null : this.lines.linePos(at).line;
  }

  /** The pairs of a mapping by key; a key not in `allowed` is refused, naming it. */
  keys(map: YAMLMap, allowed: string[] | null, where: string): Map<string, Pair> {
    const out = new Map<string, Pair>();
    for (const pair of map.items) {
      const key = isScalar(pair.key) ? String(pair.key.value) : null;
      if (key === null) throw new BatchError(`keys must be plain names ${where}`, this.line(pair));
      if (key === '__proto__')
        throw new BatchError('`__proto__` is a reserved name', this.line(pair));
      if (allowed && !allowed.includes(key)) {
        throw new BatchError(`unsupported key \`${key}\` ${where}`, this.line(pair));
      }
      out.set(key, pair);
    }
    return out;
  }

  private map(pair: Pair, what: string): YAMLMap {
    const v = pair.value as Node | null;
    if (!isMap(v)) throw new BatchError(`\`${what}\` must be a mapping`, this.line(pair));
    return v;
  }

  /** A scalar taken as text (numbers and booleans as YAML wrote them). */
  scalar(node: unknown, what: string): { text: string; line: number | null } {
    const n = node as Node | null;
    if (!isScalar(n) || n.value === null || typeof n.value === 'object') {
      throw new BatchError(`\`${what}\` must be a single value`, this.line(n));
    }
    // A number or boolean reads as written (`1.0` stays `1.0`), as the flow client reads it.
    const text = typeof n.value === 'string' ? n.value : (n.source ?? String(n.value));
    return { text, line: this.line(n) };
  }

  /** A value that takes no expressions (`kind`, the flow's `id`, param defaults …). */
  literal(node: unknown, what: string): string {
    const { text, line } = this.scalar(node, what);
    if (hasExpressions(text)) throw new BatchError(`\`${what}\` takes no expressions`, line);
    return text;
  }

  field(node: unknown, what: string, task: string | null): Field {
    const { text, line } = this.scalar(node, what);
    const tpl = atLine(line, task, () => parseTemplate(text));
    return { text, tpl, line: line ?? 0 };
  }

  params(pair: Pair): BatchParamDef[] {
    return [...this.keys(this.map(pair, 'params'), null, 'in `params`')].map(([name, p]) => {
      if (!NAME.test(name)) throw new BatchError(`bad param name \`${name}\``, this.line(p));
      const v = p.value as Node | null;
      if (!isMap(v)) {
        const isNull = v === null || (isScalar(v) && v.value === null);
        return { name, default: isNull ? null : this.literal(v, name), descr: null };
      }
      const long = this.keys(v, ['default', 'descr'], 'in a param');
      const opt = (k: string) => {
        const node = long.get(k)?.value as Node | null | undefined;
        return node == null || (isScalar(node) && node.value === null)
          ? null
          : this.literal(node, k);
      };
      return { name, default: opt('default'), descr: opt('descr') };
    });
  }

  task(node: Node, index: number, params: BatchParamDef[]): TaskDef {
    if (!isMap(node)) throw new BatchError('a task must be a mapping', this.line(node));
    const k = this.keys(node, TASK_KEYS, 'in a task');
    const line = this.line(node) ?? 0;
    // The client names tasks without an id `task-N`; such a task cannot be needed by another.
    const idPair = k.get('id');
    const where = idPair ? `task \`${this.scalar(idPair.value, 'id').text}\`` : `task ${index + 1}`;
    const opt = (key: string) => {
      const p = k.get(key);
      return p ? this.field(p.value, key, where) : null;
    };
    const id = opt('id') ?? { text: `task-${index + 1}`, tpl: [`task-${index + 1}`], line };
    const image = opt('image');
    if (!image) throw new BatchError(`${where} has no \`image\``, line);
    const cmd = opt('cmd');
    const bash = opt('bash');
    if (!cmd === !bash) {
      throw new BatchError(`${where} needs exactly one of \`cmd\` and \`bash\``, line);
    }
    return {
      line,
      id,
      title: opt('title'),
      needs: this.list(k.get('needs'), 'needs', where),
      image,
      cmd,
      bash,
      env: this.env(k.get('env'), where),
      volumes: this.list(k.get('volumes'), 'volumes', where),
      preset: opt('preset'),
      lifeSpan: opt('life_span'),
      name: opt('name'),
      nodes: opt('nodes'),
      matrix: this.strategy(k.get('strategy')),
      cache: this.cache(k.get('cache'), where),
      enable: opt('enable'),
      params,
    };
  }

  private list(pair: Pair | undefined, what: string, where: string): Field[] {
    if (!pair) return [];
    const v = pair.value as Node | null;
    if (!isSeq(v)) throw new BatchError(`\`${what}\` must be a list`, this.line(pair));
    return v.items.map((item) => this.field(item, what, where));
  }

  private env(pair: Pair | undefined, where: string): TaskDef['env'] {
    if (!pair) return [];
    return [...this.keys(this.map(pair, 'env'), null, 'in `env`')].map(([name, p]) => {
      if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) {
        throw new BatchError(`bad environment variable name \`${name}\``, this.line(p));
      }
      return { name, value: this.field(p.value, name, where) };
    });
  }

  private strategy(pair: Pair | undefined): MatrixAxis[] {
    if (!pair) return [];
    const s = this.keys(this.map(pair, 'strategy'), ['matrix'], 'in `strategy`');
    const m = s.get('matrix');
    if (!m) return [];
    return [...this.keys(this.map(m, 'matrix'), null, 'in `matrix`')].map(([name, p]) => {
      if (name === 'include' || name === 'exclude') {
        throw new BatchError(`unsupported key \`${name}\` in \`matrix\``, this.line(p));
      }
      if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) {
        throw new BatchError(`bad matrix name \`${name}\``, this.line(p));
      }
      const v = p.value as Node | null;
      if (!isSeq(v) || v.items.length === 0) {
        throw new BatchError(`matrix \`${name}\` must be a non-empty list`, this.line(p));
      }
      const values = v.items.map((item) => {
        const n = item as Node;
        if (!isScalar(n) || n.value === null || typeof n.value === 'object') {
          throw new BatchError(`matrix \`${name}\` takes single values`, this.line(n));
        }
        return this.literal(n, `matrix.${name}`);
      });
      return { name, values, line: this.line(p) ?? 0 };
    });
  }

  private cache(pair: Pair | undefined, where: string): TaskDef['cache'] {
    if (!pair) return { strategy: 'default', lifeSpan: null };
    const c = this.keys(this.map(pair, 'cache'), ['strategy', 'life_span'], 'in `cache`');
    const s = c.get('strategy');
    const strategy = s ? this.literal(s.value, 'strategy') : 'default';
    if (strategy !== 'default' && strategy !== 'none') {
      throw new BatchError(
        `cache strategy must be \`default\` or \`none\`, not \`${strategy}\``,
        this.line(s),
      );
    }
    const ls = c.get('life_span');
    return { strategy, lifeSpan: ls ? this.field(ls.value, 'life_span', where) : null };
  }
}
