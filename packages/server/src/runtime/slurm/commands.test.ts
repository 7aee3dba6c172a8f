import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SlurmUnreachable } from './client.js';
import { CommandsClient } from './commands.js';

/**
 * Slurm's commands as short-lived processes: real executables named `sbatch`, `squeue`, `scancel`
 * and `sinfo` first on PATH that exit at once without reading their input, as Slurm's own do when
 * slurmctld does not answer. Each call fails; none ends the test process (vitest fails the run on
 * an uncaught exception, as the server died of one).
 */
describe('the Slurm commands client with commands that exit at once', () => {
  const dir = mkdtempSync(join(tmpdir(), 'fake-slurm-'));
  const path = process.env.PATH;
  const script = (name: string, body: string) => {
    writeFileSync(join(dir, name), `#!/bin/sh\n${body}\n`);
    chmodSync(join(dir, name), 0o755);
  };
  beforeAll(() => {
    chmodSync(dir, 0o755);
    // An id printed without reading the script: the submission cannot be trusted.
    script('sbatch', 'echo 42');
    script('squeue', 'echo "squeue: error: Unable to contact slurm controller" >&2; exit 1');
    script(
      'scancel',
      'echo "scancel: error: Kill job error on job id 7: Access denied" >&2; exit 1',
    );
    script('sinfo', 'exit 0');
    process.env.PATH = `${dir}:${path}`;
  });
  afterAll(() => {
    process.env.PATH = path;
    rmSync(dir, { recursive: true, force: true });
  });

  it('fails each call, never the process, in a loop', async () => {
    const client = new CommandsClient(userInfo().username);
    const submission = {
      name: 'orrery-x',
      // Larger than a pipe holds: sbatch's exit leaves Node writing into a closed pipe.
      script: `#!/bin/sh\n${'# padding\n'.repeat(100_000)}`,
      output: '/tmp/out.log',
      workdir: '/tmp',
      cpus: 1,
      memoryMb: 100,
    };
    for (let i = 0; i < 10; i++) {
      await expect(client.submit(submission)).rejects.toThrow(
        /sbatch: exited before reading its input/,
      );
      await expect(client.jobs()).rejects.toBeInstanceOf(SlurmUnreachable);
      await expect(client.terminate(7)).rejects.toThrow(/Access denied/);
      // No JSON at all is a failed call too.
      await expect(client.nodes()).rejects.toThrow();
    }
  });
});
