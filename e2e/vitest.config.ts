import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    name: 'e2e',
    include: ['e2e/**/*.e2e.ts'],
    // Jobs are served at `<job>.jobs.localhost`: Chromium resolves it, glibc does not.
    setupFiles: ['packages/server/src/test/localhost-names.ts'],
    environment: 'node',
    testTimeout: 90_000,
    hookTimeout: 90_000,
    fileParallelism: false,
  },
});
