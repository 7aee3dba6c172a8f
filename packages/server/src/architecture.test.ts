// The server's layers, checked over its import graph (docs/architecture.md): the rules that
// dependency-cruiser expresses live in .dependency-cruiser.cjs; this file runs them and adds the
// two it cannot say: no cycles between modules, and no state kept in module variables.
import { createRequire } from 'node:module';
import { readFileSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { cruise, type ICruiseResult, type IForbiddenRuleType } from 'dependency-cruiser';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const SERVER = 'packages/server/src/';

interface Config {
  forbidden: IForbiddenRuleType[];
  options: Record<string, unknown>;
}
const config = createRequire(import.meta.url)(join(ROOT, '.dependency-cruiser.cjs')) as Config;

/**
 * Module variables that hold state, each with why it may. A server's state lives in the objects
 * app.ts and server.ts make for it, so that two servers in one process share nothing.
 */
const MODULE_STATE_KEPT: Record<string, string> = {
  'http/access.ts: routeAccess':
    'the API routes and their declared access, for tests to enumerate: every server registers ' +
    'the same routes with the same access, so it records the code, not a server',
  'modules/apps/input-schema.ts: compiled':
    'a memo of compiled validators keyed by the schema object: the same answer for any server',
  'modules/assistant/knowledge/glossary.ts: sectionTerms':
    'a memo keyed by a parsed docs section: derived from the repository, the same for any server',
  'modules/assistant/knowledge/index.ts: built':
    'the docs knowledge base by directory: read from the repository, the same for any server',
  'modules/buckets/service.ts: clients':
    "S3 clients keyed by a server's own settings object: servers never share one",
  'runtime/process/volumes.ts: searchable':
    'host directories already made searchable by the jobs group: a fact of the host, true for ' +
    'every server in the process',
};

async function cruiseAll(): Promise<ICruiseResult> {
  const { output } = await cruise(['packages/server/src', 'packages/web/src'], {
    ...config.options,
    validate: true,
    ruleSet: { forbidden: config.forbidden },
    outputType: 'json',
    baseDir: ROOT,
  });
  return (typeof output === 'string' ? JSON.parse(output) : output) as ICruiseResult;
}

/** `modules/<name>` or `runtime` for a server file, null for the rest. */
function moduleOf(path: string): string | null {
  const m = path.startsWith(SERVER)
    ? /^(modules\/[^/]+|runtime)\//.exec(path.slice(SERVER.length))
    : null;
  return m ? m[1] : null;
}

/** Strongly connected groups of more than one module (Tarjan). */
function cycles(edges: Map<string, Set<string>>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const found: string[][] = [];
  const visit = (v: string) => {
    index.set(v, index.size);
    low.set(v, index.get(v)!);
    stack.push(v);
    for (const w of edges.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (stack.includes(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const group: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        group.push(w);
      } while (w !== v);
      if (group.length > 1) found.push(group.sort());
    }
  };
  for (const v of edges.keys()) if (!index.has(v)) visit(v);
  return found;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    // An app template's runtime/ holds programs run in jobs, with node_modules of their own.
    const programs = /\/templates\/[^/]+\/runtime$/.test(path);
    if (e.isDirectory()) return e.name === 'test' || programs ? [] : sourceFiles(path);
    return e.name.endsWith('.ts') && !e.name.endsWith('.test.ts') ? [path] : [];
  });
}

/**
 * Top-level `let`/`var`, and top-level Maps and Sets the file changes (a constant lookup table
 * is not state), as `file: name`.
 */
function moduleState(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.ES2022, true);
  const name = relative(join(ROOT, SERVER), file);
  const found: string[] = [];
  for (const statement of source.statements) {
    if (!ts.isVariableStatement(statement)) continue;
    const isConst = (statement.declarationList.flags & ts.NodeFlags.Const) !== 0;
    for (const d of statement.declarationList.declarations) {
      const id = d.name.getText(source);
      const init = d.initializer;
      const collection =
        init &&
        ts.isNewExpression(init) &&
        /^(Map|Set|WeakMap|WeakSet)$/.test(init.expression.getText(source));
      const changed = new RegExp(`\\b${id}\\.(set|add|delete|clear)\\(`).test(text);
      if (!isConst || (collection && changed)) found.push(`${name}: ${id}`);
    }
  }
  return found;
}

describe('architecture (docs/architecture.md)', () => {
  it('keeps the layers: rules of .dependency-cruiser.cjs', async () => {
    const result = await cruiseAll();
    const problems = result.summary.violations.map((v) => {
      const cycle = v.cycle?.map((c) => c.name).join(' → ');
      return `${v.rule.name}: ${v.from} → ${cycle ?? v.to}`;
    });
    expect(problems, `broken rules (.dependency-cruiser.cjs):\n${problems.join('\n')}`).toEqual([]);

    // No cycles between modules, through any files of theirs.
    const edges = new Map<string, Set<string>>();
    const via = new Map<string, string[]>();
    for (const m of result.modules) {
      const a = moduleOf(m.source);
      if (!a || m.source.endsWith('.test.ts')) continue;
      for (const d of m.dependencies) {
        const b = moduleOf(d.resolved);
        if (!b || b === a) continue;
        const edge = `${a} -> ${b}`;
        if (!via.has(edge)) via.set(edge, []);
        via
          .get(edge)!
          .push(`${m.source.slice(SERVER.length)} → ${d.resolved.slice(SERVER.length)}`);
        if (!edges.has(a)) edges.set(a, new Set());
        edges.get(a)!.add(b);
      }
    }
    const cyclic = cycles(edges).map((group) => {
      const inside = [...via].filter(([edge]) => {
        const [a, b] = edge.split(' -> ');
        return group.includes(a) && group.includes(b);
      });
      return `${group.join(' ↔ ')}:\n${inside.map(([e, files]) => `  ${e}: ${files.join(', ')}`).join('\n')}`;
    });
    expect(
      cyclic,
      `module cycles (move the shared piece to the lower module, or pass a callback in from app.ts):\n${cyclic.join('\n')}`,
    ).toEqual([]);
  });

  it('enters every module by its plugin.ts from app.ts, and names route files alike', () => {
    const modules = join(ROOT, SERVER, 'modules');
    const app = readFileSync(join(ROOT, SERVER, 'app.ts'), 'utf8');
    const problems: string[] = [];
    for (const area of readdirSync(modules, { withFileTypes: true })) {
      if (!area.isDirectory()) continue;
      const files = sourceFiles(join(modules, area.name)).map((f) => relative(modules, f));
      for (const f of files) {
        if (/(^|\/)routes\/|-routes\.ts$/.test(f)) {
          problems.push(`modules/${f}: name it routes.ts or routes-<part>.ts`);
        }
      }
      // An area with HTTP routes is entered once, by the plugin its plugin.ts exports.
      if (!files.some((f) => /(^|\/)routes(-[^/]+)?\.ts$/.test(f))) continue;
      const entry = `${area.name.replace(/-(\w)/g, (_, c: string) => c.toUpperCase())}Module`;
      const plugin = join(modules, area.name, 'plugin.ts');
      if (!files.includes(join(area.name, 'plugin.ts'))) {
        problems.push(`modules/${area.name}: no plugin.ts exporting ${entry}`);
      } else if (!readFileSync(plugin, 'utf8').includes(`export const ${entry} =`)) {
        problems.push(`modules/${area.name}/plugin.ts: exports no ${entry}`);
      }
      const imported = new RegExp(
        `import \\{[^}]*\\b${entry}\\b[^}]*\\} from '\\./modules/${area.name}/plugin\\.js'`,
      );
      if (!imported.test(app)) {
        problems.push(`app.ts: does not import ${entry} from modules/${area.name}/plugin.ts`);
      }
    }
    for (const m of app.matchAll(/from '\.\/modules\/([^']+)'/g)) {
      if (/\/routes(-[^/]+)?\.js$/.test(m[1])) {
        problems.push(`app.ts: registers modules/${m[1]}; register the module's plugin instead`);
      }
    }
    expect(problems, `module entrances (docs/architecture.md):\n${problems.join('\n')}`).toEqual(
      [],
    );
  });

  it('keeps no server state in module variables', () => {
    const found = sourceFiles(join(ROOT, SERVER)).flatMap(moduleState);
    const unexplained = found.filter((f) => !(f in MODULE_STATE_KEPT));
    const stale = Object.keys(MODULE_STATE_KEPT)
      .filter((f) => !found.includes(f))
      .map((f) => `${f}: gone; take it off MODULE_STATE_KEPT`);
    expect(
      [...unexplained, ...stale],
      `state in module variables (keep it in an object app.ts or server.ts makes):\n${[...unexplained, ...stale].join('\n')}`,
    ).toEqual([]);
  });
});
