import { BatchError } from './errors.js';

/**
 * The `${{ }}` expression language of batch files: a small grammar parsed by hand (never `eval`),
 * so that a flow file cannot run code in the server.
 *
 *   or      := and ('||' and)*
 *   and     := eq ('&&' eq)*
 *   eq      := cmp (('==' | '!=') cmp)*
 *   cmp     := unary (('<' | '<=' | '>' | '>=') unary)*
 *   unary   := '!' unary | postfix
 *   postfix := primary ('.' NAME | '[' or ']')*
 *   primary := literal | NAME '(' args ')' | NAME | '(' or ')'
 */
export type Expr =
  | { k: 'lit'; v: string | number | boolean | null }
  | { k: 'name'; name: string }
  | { k: 'prop'; obj: Expr; key: string }
  | { k: 'index'; obj: Expr; key: Expr }
  | { k: 'call'; fn: string; args: Expr[] }
  | { k: 'not'; e: Expr }
  | { k: 'bin'; op: BinOp; l: Expr; r: Expr };
export type BinOp = '==' | '!=' | '<' | '<=' | '>' | '>=' | '&&' | '||';

/** A string field: literal text and the expressions between it. */
export type Template = (string | { expr: Expr; src: string })[];

type Tok =
  | { t: 'op'; v: string; at: number }
  | { t: 'name'; v: string; at: number }
  | { t: 'lit'; v: string | number | boolean | null; at: number }
  | { t: 'end'; at: number };

const OPS = ['}}', '==', '!=', '<=', '>=', '&&', '||', '<', '>', '!', '.', '(', ')', '[', ']', ','];
// Hyphens are allowed in names (task ids such as `fan-1`); there is no minus operator to clash.
const NAME = /[A-Za-z_][A-Za-z0-9_-]*/y;
const NUMBER = /-?\d+(\.\d+)?([eE][+-]?\d+)?/y;
const KEYWORDS: Record<string, boolean | null> = {
  true: true,
  false: false,
  null: null,
  True: true,
  False: false,
  None: null,
};

/** Longer expressions are refused, for the same reason as deep ones (see MAX_DEPTH). */
const MAX_TOKENS = 1000;

/** Reads the tokens of one expression from `pos` up to and including its closing `}}`. */
function lex(src: string, pos: number): { toks: Tok[]; end: number } {
  const toks: Tok[] = [];
  let i = pos;
  for (;;) {
    while (i < src.length && /\s/.test(src[i])) i++;
    if (i >= src.length) throw new BatchError('an expression is not closed with `}}`', null);
    if (toks.length >= MAX_TOKENS) {
      throw new BatchError(`\`${src.slice(pos - 3, pos + 37)}…\` is too long`, null);
    }
    const c = src[i];
    if (src.startsWith('}}', i)) {
      toks.push({ t: 'end', at: i });
      return { toks, end: i + 2 };
    }
    if (c === "'" || c === '"') {
      const { value, next } = readString(src, i);
      toks.push({ t: 'lit', v: value, at: i });
      i = next;
      continue;
    }
    NUMBER.lastIndex = i;
    const num = NUMBER.exec(src);
    if (num) {
      toks.push({ t: 'lit', v: Number(num[0]), at: i });
      i += num[0].length;
      continue;
    }
    NAME.lastIndex = i;
    const name = NAME.exec(src);
    if (name) {
      const w = name[0];
      toks.push(
        Object.hasOwn(KEYWORDS, w)
          ? { t: 'lit', v: KEYWORDS[w], at: i }
          : { t: 'name', v: w, at: i },
      );
      i += w.length;
      continue;
    }
    const op = OPS.find((o) => src.startsWith(o, i));
    if (!op) throw new BatchError(`unexpected \`${c}\` in an expression`, null);
    toks.push({ t: 'op', v: op, at: i });
    i += op.length;
  }
}

/** A quoted string: single quotes double themselves (`'it''s'`), double quotes take `\` escapes. */
function readString(src: string, start: number): { value: string; next: number } {
  const q = src[start];
  let out = '';
  for (let i = start + 1; i < src.length; i++) {
    const c = src[i];
    if (q === "'" && c === "'") {
      if (src[i + 1] === "'") {
        out += "'";
        i++;
        continue;
      }
      return { value: out, next: i + 1 };
    }
    if (q === '"' && c === '\\' && i + 1 < src.length) {
      const e = src[++i];
      out += e === 'n' ? '\n' : e === 't' ? '\t' : e;
      continue;
    }
    if (q === '"' && c === '"') return { value: out, next: i + 1 };
    out += c;
  }
  throw new BatchError('a string in an expression is not closed', null);
}

/** Deeper expressions are refused: evaluating them must not exhaust the call stack. */
const MAX_DEPTH = 64;

class Parser {
  private i = 0;
  private depth = 0;
  constructor(
    private readonly toks: Tok[],
    private readonly src: string,
    /** The whole `${{ … }}`, for the messages. */
    private readonly text: string,
  ) {}

  parseAll(): Expr {
    if (this.peek().t === 'end') throw new BatchError(`\`${this.text}\` is empty`, null);
    const e = this.or();
    if (this.peek().t !== 'end') this.fail();
    return e;
  }

  private peek(): Tok {
    return this.toks[this.i];
  }
  private isOp(v: string): boolean {
    const t = this.peek();
    return t.t === 'op' && t.v === v;
  }
  private expect(v: string): void {
    if (!this.isOp(v)) this.fail(`\`${v}\` expected, found`);
    this.i++;
  }
  private fail(what?: string): never {
    const t = this.peek();
    const found = t.t === 'end' ? 'end' : `\`${this.src.slice(t.at).split(/\s/)[0]}\``;
    throw new BatchError(`${what ?? 'unexpected'} ${found} in \`${this.text}\``, null);
  }

  private binary(ops: BinOp[], next: () => Expr): Expr {
    let l = next();
    for (;;) {
      const t = this.peek();
      if (t.t !== 'op' || !ops.includes(t.v as BinOp)) return l;
      this.i++;
      l = { k: 'bin', op: t.v as BinOp, l, r: next() };
    }
  }
  private or = (): Expr => this.binary(['||'], this.and);
  private and = (): Expr => this.binary(['&&'], this.eq);
  private eq = (): Expr => this.binary(['==', '!='], this.cmp);
  private cmp = (): Expr => this.binary(['<', '<=', '>', '>='], this.unary);

  private unary = (): Expr => {
    if (++this.depth > MAX_DEPTH) this.tooDeep();
    try {
      if (this.isOp('!')) {
        this.i++;
        return { k: 'not', e: this.unary() };
      }
      return this.postfix();
    } finally {
      this.depth--;
    }
  };

  private tooDeep(): never {
    throw new BatchError(`\`${this.text.slice(0, 40)}…\` nests too deeply`, null);
  }

  private postfix(): Expr {
    let e = this.primary();
    for (let n = this.depth; ; n++) {
      if (n > MAX_DEPTH) this.tooDeep();
      if (this.isOp('.')) {
        this.i++;
        const t = this.peek();
        if (t.t !== 'name') this.fail('a name expected after `.`, found');
        this.i++;
        e = { k: 'prop', obj: e, key: t.v };
      } else if (this.isOp('[')) {
        this.i++;
        const key = this.or();
        this.expect(']');
        e = { k: 'index', obj: e, key };
      } else return e;
    }
  }

  private primary(): Expr {
    const t = this.peek();
    if (t.t === 'lit') {
      this.i++;
      return { k: 'lit', v: t.v };
    }
    if (t.t === 'name') {
      this.i++;
      if (!this.isOp('(')) return { k: 'name', name: t.v };
      this.i++;
      const args: Expr[] = [];
      if (!this.isOp(')')) {
        args.push(this.or());
        while (this.isOp(',')) {
          this.i++;
          args.push(this.or());
        }
      }
      this.expect(')');
      return { k: 'call', fn: t.v, args };
    }
    if (this.isOp('(')) {
      this.i++;
      const e = this.or();
      this.expect(')');
      return e;
    }
    this.fail();
  }
}

/** Splits a string field into text and parsed `${{ }}` expressions. */
export function parseTemplate(src: string): Template {
  const parts: Template = [];
  let pos = 0;
  for (;;) {
    const open = src.indexOf('${{', pos);
    if (open < 0) break;
    if (open > pos) parts.push(src.slice(pos, open));
    const { toks, end } = lex(src, open + 3);
    const text = src.slice(open, end);
    parts.push({ expr: new Parser(toks, src, text).parseAll(), src: text });
    pos = end;
  }
  if (pos < src.length) parts.push(src.slice(pos));
  return parts;
}

export const hasExpressions = (src: string) => src.includes('${{');
