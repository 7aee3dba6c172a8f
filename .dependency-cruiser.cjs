// The server's layers as rules over its import graph (docs/architecture.md). `npm test` checks
// them in packages/server/src/architecture.test.ts, which also checks what this file cannot say:
// no cycles between modules, no state in module variables. By hand:
//   npx depcruise packages/server/src packages/web/src
//
// No server file is excepted from a rule: a query goes into its module's store, and a route
// calls its module's service.

const SERVER = 'packages/server/src/';
/** Files that may run queries: stores, tables, the database layer itself, and test helpers. */
const DATA_LAYER = [
  '(^|/)store\\.ts$',
  '(^|/)[^/]+-store\\.ts$',
  '(^|/)store-[^/]+\\.ts$',
  '/store/',
  '(^|/)tables\\.ts$',
  `^${SERVER}db/`,
  `^${SERVER}test/`,
  '\\.test\\.ts$',
];

/**
 * Console files in an import cycle on purpose: a schema form's nodes render each other (a
 * recursive structure, recursive views).
 */
const WEB_CYCLES_KEPT = ['^packages/web/src/forms/(AnyOfView|NodeView)\\.tsx$'];

/** Route files by name: `routes.ts` and `routes-<part>.ts` (docs/architecture.md). */
const ROUTE_FILES = `^${SERVER}.*(/routes\\.ts|/routes-[^/]+\\.ts)$`;

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'runtime-independent-of-modules',
      comment:
        'runtime/ (the drivers) depends on nothing in modules/: what a driver needs is passed in ' +
        'when it is made, or lives in runtime/ and the module reads it from there.',
      severity: 'error',
      from: { path: `^${SERVER}runtime/`, pathNot: '\\.test\\.ts$' },
      to: { path: `^${SERVER}modules/` },
    },
    {
      name: 'queries-only-in-stores',
      comment:
        'Only stores (store.ts, *-store.ts, store-*.ts, store/), tables.ts and db/ touch the ' +
        'database: ' +
        'routes and services call a store. Type-only imports (a row type) are fine.',
      severity: 'error',
      from: {
        path: `^${SERVER}`,
        pathNot: DATA_LAYER,
      },
      to: {
        path: ['(^|/)node_modules/drizzle-orm/', `^${SERVER}db/schema\\.ts$`, '(^|/)tables\\.ts$'],
        dependencyTypesNot: ['type-only'],
      },
    },
    {
      name: 'routes-through-services',
      comment:
        'Route files call their service, and the service its store (routes -> service -> store).',
      severity: 'error',
      from: { path: ROUTE_FILES },
      to: {
        path: ['(^|/)store\\.ts$', '(^|/)[^/]+-store\\.ts$', '(^|/)store-[^/]+\\.ts$', '/store/'],
        dependencyTypesNot: ['type-only'],
      },
    },
    {
      name: 'no-web-cycles',
      comment: 'The console has no import cycles between its files.',
      severity: 'error',
      from: { path: '^packages/web/src/', pathNot: WEB_CYCLES_KEPT },
      // A cycle closed only by type imports is gone at run time (a feature naming the type of
      // the list that holds it).
      to: { circular: true, viaOnly: { dependencyTypesNot: ['type-only'] } },
    },
  ],
  options: {
    // Type-only imports count: a module that names another's types depends on it.
    tsPreCompilationDeps: true,
    doNotFollow: { path: 'node_modules' },
    exclude: { path: ['/dist/'] },
    enhancedResolveOptions: { extensions: ['.ts', '.tsx', '.js', '.mjs'] },
  },
};
