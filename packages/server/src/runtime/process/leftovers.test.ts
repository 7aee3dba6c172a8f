import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { stopJobsUnder } from '../../../../../scripts/leftovers.mjs';
import { logOf, processesOf, spec, until } from '../../test/process-jobs.js';
import { eventually } from '../../test/app-instance.js';
import { ProcessDriver } from './driver.js';
import { SLIRP } from './network.js';
import { BWRAP } from './sandbox.js';

const sandboxed = process.getuid?.() === 0 && existsSync(BWRAP) && existsSync(SLIRP);

/**
 * The sweep of the tests' harnesses and of npm test between passes (scripts/leftovers.mjs): the
 * jobs a server left running under a data directory are stopped, and nothing else.
 */
describe('leftover jobs of test servers', () => {
  it.runIf(sandboxed)(
    'stops the jobs a server left running under its data directory, and nothing of another',
    async () => {
      const dataDir = mkdtempSync(join(tmpdir(), 'orrery-leftovers-'));
      const driver = new ProcessDriver({ dataDir, killGraceMs: 1000 });
      // A job's process of another data directory (another server's, its name a longer one).
      const bystander = spawn('sh', ['-c', 'sleep 600', `${dataDir}-other/jobs/j/etc/passwd`], {
        stdio: 'ignore',
      });
      try {
        const job = spec('echo started; sleep 600');
        await driver.start(job);
        await until(driver, job.id, 'running');
        await eventually(async () => expect(await logOf(driver, job.id)).toContain('started'));
        const { uid } = JSON.parse(
          readFileSync(join(dataDir, 'jobs', job.id, 'job.json'), 'utf8'),
        ) as { uid: number };
        // The server goes and its job, by design, runs on: its sandbox, sleep, slirp4netns.
        await driver.close();
        expect(processesOf(uid).length).toBeGreaterThan(2);

        expect(stopJobsUnder(`${dataDir}/`)).toEqual([job.id]);
        // With its sandbox's PID namespace went everything the job started.
        await eventually(async () => expect(processesOf(uid)).toEqual([]));
        expect(bystander.exitCode).toBeNull();
        expect(stopJobsUnder(`${dataDir}/`)).toEqual([]);
      } finally {
        bystander.kill();
        rmSync(dataDir, { recursive: true, force: true });
      }
    },
  );
});
