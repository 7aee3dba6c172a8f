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
  'packages/server/src/modules/jobs/gang.test.ts',
  'packages/server/src/modules/jobs/docker.test.ts',
  'packages/server/src/security/sandbox.test.ts',
  // The official Apolo clients against a real server: they start jobs on the process runtime.
  'packages/server/src/clients/',
];

/**
 * Files under RUNTIME_TESTS that are pure unit tests (parsers, manifests, a stand-in Kubernetes
 * API): they touch nothing of the host's, so they run in the parallel pass with the rest.
 */
export const RUNTIME_UNIT_TESTS = [
  'packages/server/src/runtime/common.test.ts',
  'packages/server/src/runtime/gpu-stats.test.ts',
  'packages/server/src/runtime/gpus.test.ts',
  'packages/server/src/runtime/log-file.test.ts',
  'packages/server/src/runtime/docker/logs.test.ts',
  'packages/server/src/runtime/slurm/state.test.ts',
  'packages/server/src/runtime/slurm/capacity.test.ts',
  'packages/server/src/runtime/slurm/nodes.test.ts',
  'packages/server/src/runtime/slurm/exec.test.ts',
  'packages/server/src/runtime/kubernetes/deploy.test.ts',
  'packages/server/src/runtime/kubernetes/manifests.test.ts',
  'packages/server/src/runtime/kubernetes/driver.test.ts',
  'packages/server/src/runtime/kubernetes/pools.test.ts',
  'packages/server/src/runtime/process/volumes.test.ts',
  'packages/server/src/modules/apps/templates/index.test.ts',
  'packages/server/src/modules/apps/templates/docker-only/dify.test.ts',
  'packages/server/src/modules/apps/templates/docker-only/docker-only.test.ts',
];

/** The files of the runtime pass: those of RUNTIME_TESTS but the unit tests and Slurm's. */
export function runtimeTests(root) {
  return RUNTIME_TESTS.flatMap((t) => {
    const path = join(root, t);
    return t.endsWith('/') ? testFiles(path) : [path];
  })
    .map((f) => relative(root, f))
    .filter((f) => !f.endsWith('.slurm.test.ts') && !RUNTIME_UNIT_TESTS.includes(f));
}

/**
 * Files that measure their own process (its memory, its open files): vitest runs each in a fresh
 * process (project `server-isolated` of vitest.config.ts), the others share their workers.
 */
export const ISOLATED_TESTS = [
  'packages/server/src/modules/jobs/slow-readers.test.ts',
  'packages/server/src/modules/buckets/slow-readers.test.ts',
  'packages/server/src/modules/storage/slow-readers.test.ts',
];

/**
 * Files that reach the database but check what does not depend on its engine (the migrations
 * written from the TypeScript tables, generated against an embedded database): once is enough.
 */
export const ENGINE_FREE_TESTS = ['packages/server/src/db/tables-match-migrations.test.ts'];

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
    .map((f) => relative(root, f))
    .filter((f) => !ENGINE_FREE_TESTS.includes(f));
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
    if (e.isDirectory()) return e.name === 'node_modules' ? [] : testFiles(p);
    return e.name.endsWith('.test.ts') ? [p] : [];
  });
}
