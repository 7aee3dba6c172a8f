import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import { RUNTIME_TESTS } from './scripts/database-tests.mjs';

const contract = fileURLToPath(new URL('./packages/contract/src/index.ts', import.meta.url));

// `*.slurm.test.ts` need the private Slurm cluster of scripts/slurm.mjs: npm test runs them in a
// pass of their own with the cluster's ORRERY_TEST_SLURM_* env. Outside it they are selected only
// when named on the command line, and then skip saying why.
const SLURM_TESTS = 'packages/server/src/**/*.slurm.test.ts';
const slurmWanted =
  !!process.env.ORRERY_TEST_SLURM_CONF || process.argv.some((a) => a.includes('.slurm.test'));

// npm test runs the runtimes' tests in a pass of their own, one file at a time, and the rest on
// two workers (scripts/test.mjs); ORRERY_TEST_RUNTIME_APART leaves them out of the latter.
const runtimeApart = process.env.ORRERY_TEST_RUNTIME_APART
  ? RUNTIME_TESTS.map((t) => (t.endsWith('/') ? `${t}**` : t))
  : [];

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
          exclude: ['**/node_modules/**', SLURM_TESTS, ...runtimeApart],
          environment: 'node',
          testTimeout: 30000,
          hookTimeout: 60000,
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
