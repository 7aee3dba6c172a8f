import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { text } from 'node:stream/consumers';
import { describe, expect, it } from 'vitest';
import { ENTER, withoutTaskExit } from './exec.js';

/**
 * The parts of an exec on Slurm that need no cluster (exec.ts); the step itself, in a job's
 * sandbox and in a gang's chosen worker, is tested on the test cluster (jobs/gang.slurm.test.ts).
 */
describe('exec on the slurm runtime, without a cluster', () => {
  it("leaves srun's own line for a task's exit out of the command's error output, and nothing else", async () => {
    const chunks = [
      'warning: disk almost full\n',
      'srun: error: node-a1: task 0: Exited with exit code 3\n',
      'srun: error: Unable to create step for job 12: Job/step already completing or completed\n',
    ];
    const out = await text(
      Readable.from(chunks.map((c) => Buffer.from(c))).pipe(withoutTaskExit()),
    );
    expect(out).toBe(`${chunks[0]}${chunks[2]}`);
  });

  it('says there is no process to exec in where the job has not started or has ended', () => {
    const dir = mkdtempSync(join(tmpdir(), 'slurm-exec-'));
    try {
      const run = () => spawnSync('/bin/sh', ['-c', ENTER, 'orrery-exec', dir, 'true']);
      // Not started: no sandbox yet.
      expect(run()).toMatchObject({ status: 125 });
      expect(String(run().stderr)).toBe('orrery: the job has no process to exec in\n');
      // Its command has exited (the sandbox's record is still there).
      writeFileSync(join(dir, 'sandbox.json'), '{ "child-pid": 1 }');
      writeFileSync(join(dir, 'started'), '');
      writeFileSync(join(dir, 'exit'), '0');
      expect(run()).toMatchObject({ status: 125 });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
