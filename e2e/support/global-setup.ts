import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { ROOT } from './server.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A data directory whose embedded database `orrery migrate` made (server.ts copies it). */
    migratedDataDir: string;
  }
}

/**
 * Once per pass: a data directory migrated by the production build's `orrery migrate`. PGlite's
 * initdb takes seconds on disk, and every file of the pass starts a server of its own; each
 * copies this one instead, and its own migrations then find nothing to do.
 */
export default function setup(project: TestProject) {
  const dir = mkdtempSync(join(tmpdir(), 'orrery-e2e-migrated-'));
  execFileSync(process.execPath, ['packages/server/bin/orrery.js', 'migrate'], {
    cwd: ROOT,
    env: { ...process.env, ORRERY_DATA_DIR: dir },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  project.provide('migratedDataDir', dir);
  return () => rmSync(dir, { recursive: true, force: true });
}
