import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    name: 'e2e',
    include: ['e2e/**/*.e2e.ts'],
    // Jobs are served at `<job>.jobs.localhost`: Chromium resolves it, glibc does not.
    setupFiles: ['packages/server/src/test/localhost-names.ts'],
    // One migrated data directory for the pass, which each file's server starts from a copy of.
    globalSetup: ['e2e/support/global-setup.ts'],
    environment: 'node',
    testTimeout: 90_000,
    hookTimeout: 90_000,
    // expect.poll waits for what the page shows; its own default (1 s) fails on a loaded machine.
    expect: { poll: { timeout: 30_000 } },
    // Two files at a time: each has its own server process, data directory (its registry's socket
    // and outbox in it), port and Chromium, and a dockerd of its own where it needs one; the
    // process runtime's jobs of two servers take host-wide distinct uids (runtime/process/identity.ts).
    fileParallelism: true,
    maxWorkers: 2,
  },
});
