import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import { ISOLATED_TESTS, runtimeTests } from './scripts/database-tests.mjs';

const contract = fileURLToPath(new URL('./packages/contract/src/index.ts', import.meta.url));

// `*.slurm.test.ts` need the private Slurm cluster of scripts/slurm.mjs: npm test runs them in a
// pass of their own with the cluster's ORRERY_TEST_SLURM_* env. Outside it they are selected only
// when named on the command line, and then skip saying why.
const SLURM_TESTS = 'packages/server/src/**/*.slurm.test.ts';
const slurmWanted =
  !!process.env.ORRERY_TEST_SLURM_CONF || process.argv.some((a) => a.includes('.slurm.test'));

const root = fileURLToPath(new URL('.', import.meta.url));

// npm test runs the runtimes' tests in a pass of their own (ORRERY_TEST_PASS=runtime) and the
// rest on two workers (scripts/test.mjs); ORRERY_TEST_RUNTIME_APART leaves them out of the latter.
const runtimePass = process.env.ORRERY_TEST_PASS === 'runtime';
const runtimeApart = process.env.ORRERY_TEST_RUNTIME_APART ? runtimeTests(root) : [];

export default defineConfig({
  resolve: { alias: { '@orrery/contract': contract } },
  test: {
    projects: [
      {
        extends: true,
        test: {
          name: 'contract',
          include: ['packages/contract/src/**/*.test.ts'],
          environment: 'node',
        },
      },
      {
        extends: true,
        test: {
          name: 'server',
          include: ['packages/server/src/**/*.test.ts'],
          setupFiles: ['packages/server/src/test/localhost-names.ts'],
          exclude: ['**/node_modules/**', SLURM_TESTS, ...ISOLATED_TESTS, ...runtimeApart],
          environment: 'node',
          testTimeout: 30000,
          hookTimeout: 60000,
          // Files share their worker's modules: importing the server took most of a small
          // file's time. What a server keeps is scoped to it (no module-level state), so one
          // file's servers do not see another's.
          isolate: runtimePass,
          // The runtime pass runs one file at a time on purpose: its files share the host's nft
          // table, /run/orrery, cgroups and dockerd, and a fresh process each.
          ...(runtimePass ? { fileParallelism: false } : {}),
        },
      },
      {
        extends: true,
        test: {
          // Files that measure this process (its memory, its open files): a process of their own.
          name: 'server-isolated',
          include: ISOLATED_TESTS,
          setupFiles: ['packages/server/src/test/localhost-names.ts'],
          environment: 'node',
          testTimeout: 30000,
          hookTimeout: 60000,
          isolate: true,
        },
      },
      ...(slurmWanted
        ? [
            {
              extends: true,
              test: {
                name: 'slurm',
                include: [SLURM_TESTS],
                setupFiles: ['packages/server/src/test/localhost-names.ts'],
                environment: 'node',
                testTimeout: 60000,
                hookTimeout: 60000,
                // One cluster: files that down nodes or fill them must not overlap.
                fileParallelism: false,
              },
            },
          ]
        : []),
      'packages/web',
    ],
  },
});
