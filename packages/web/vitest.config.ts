import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  plugins: [react()],
  resolve: {
    alias: {
      '@orrery/contract': fileURLToPath(new URL('../contract/src/index.ts', import.meta.url)),
    },
  },
  test: {
    environment: 'jsdom',
    setupFiles: ['./src/test/setup.ts'],
    include: ['src/**/*.test.{ts,tsx}'],
    css: false,
    restoreMocks: true,
    // Files share their worker's modules and jsdom window: a fresh window and React, Mantine and
    // the console imported again took 2 s a file, most of this project's time. What a test
    // leaves behind is put back after each (src/test/setup.ts: the DOM, the page's URL, timers,
    // globals, storage, notifications; mocks by restoreMocks), as between the tests of a file.
    isolate: false,
    // A budget for a test that hangs, not a measure: on two loaded cores a lazy chunk's first
    // import in jsdom (the chat panel's markdown) alone can take seconds. Above the waits' own
    // limit (src/test/setup.ts), so that a failing wait says what it waited for.
    testTimeout: 60_000,
  },
});
