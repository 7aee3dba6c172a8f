// The server's test files that reach the database: those whose relative imports lead, at any
// depth, to db/client.ts. npm test runs only these again on PostgreSQL; the others (parsers, the
// sandbox) would run the same code twice. The tests of the job runtimes and of the app templates
// run once too: they start a server to reach a runtime, and what they check is the runtime.
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

// Type-only imports are left out: they are gone at run time.
const IMPORT =
  /(?:import|export)\s(?!type\s)[^'"]*?from\s+['"](\.[^'"]+)['"]|import\(\s*['"](\.[^'"]+)['"]\s*\)/g;

/**
 * The tests of the job runtimes (and the API tests that check a runtime's isolation): they own
 * host-wide things (the nft table, /run/orrery, cgroups, dockerd, real app servers) and their
 * timings, so npm test runs them one file at a time, apart from the rest, which runs on two
 * workers. They run once, on PGlite: what they check is the runtime, not the database.
 */
export const RUNTIME_TESTS = [
  'packages/server/src/runtime/',
  'packages/server/src/modules/apps/templates/',
  'packages/server/src/modules/jobs/isolation.test.ts',
  'packages/server/src/modules/jobs/docker.test.ts',
  'packages/server/src/security/sandbox.test.ts',
  // The official Apolo clients against a real server: they start jobs on the process runtime.
  'packages/server/src/clients/',
];

export function databaseTests(root) {
  const src = join(root, 'packages/server/src');
  const target = join(src, 'db/client.ts');
  const memo = new Map();
  const reaches = (file) => {
    if (file === target) return true;
    if (memo.has(file)) return memo.get(file);
    memo.set(file, false); // an import cycle does not reach it through itself
    const text = readFileSync(file, 'utf8');
    for (const m of text.matchAll(IMPORT)) {
      const dep = sourceOf(resolve(dirname(file), m[1] ?? m[2]));
      if (dep && reaches(dep)) {
        memo.set(file, true);
        return true;
      }
    }
    return false;
  };
  const runtimeOnly = RUNTIME_TESTS.map((t) => join(root, t));
  return testFiles(src)
    .filter((f) => !f.endsWith('.slurm.test.ts') && !runtimeOnly.some((d) => f.startsWith(d)))
    .filter(reaches)
    .map((f) => relative(root, f));
}

/** The TypeScript source behind an import written with its compiled name (`./x.js`). */
function sourceOf(path) {
  for (const p of [path.replace(/\.m?js$/, '.ts'), path.replace(/\.js$/, '.tsx'), path]) {
    if (/\.tsx?$/.test(p) && existsSync(p)) return p;
  }
  return null;
}

function testFiles(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = join(dir, e.name);
    if (e.isDirectory()) return testFiles(p);
    return e.name.endsWith('.test.ts') ? [p] : [];
  });
}
