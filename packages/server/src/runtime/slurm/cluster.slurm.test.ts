// The test cluster itself (scripts/slurm.mjs): jobs go through the commands and through
// slurmrestd with a JWT minted here, and run as an unprivileged user.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { mintToken } from './jwt.js';
import { describeSlurm, slurmCommand, waitForLine } from '../../test/slurm-cluster.js';

describeSlurm('test Slurm cluster', (c) => {
  const rest = (path: string, init: RequestInit = {}, user = c.user, key?: Buffer) =>
    fetch(`${c.restUrl}${path}`, {
      ...init,
      headers: {
        'Content-Type': 'application/json',
        'X-SLURM-USER-NAME': user,
        'X-SLURM-USER-TOKEN': mintToken(key ?? readFileSync(c.jwtKeyPath), user),
      },
    });

  it('runs a job submitted with sbatch', async () => {
    const out = join(c.sharedDir, `cmd-${process.pid}-%j.out`);
    const id = (
      await slurmCommand(c, 'sbatch', ['--parsable', '-o', out, '--wrap', 'echo from-sbatch'])
    ).trim();
    expect(id).toMatch(/^\d+$/);
    expect(await waitForLine(out.replace('%j', id))).toBe('from-sbatch\n');
  });

  it('runs a job submitted over REST with a minted JWT, as the token’s unprivileged user', async () => {
    const out = join(c.sharedDir, `rest-${process.pid}-%j.out`);
    const res = await rest('/slurm/v0.0.38/job/submit', {
      method: 'POST',
      body: JSON.stringify({
        script: '#!/bin/sh\necho "from-rest $(id -un)"\n',
        job: {
          name: 'smoke',
          partition: 'gpu',
          current_working_directory: c.sharedDir,
          environment: { PATH: '/usr/bin:/bin' },
          standard_output: out,
          gres: 'gpu:1',
        },
      }),
    });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { job_id: number; errors: unknown[] };
    expect(body.errors).toEqual([]);
    expect(await waitForLine(out.replace('%j', String(body.job_id)))).toBe(`from-rest ${c.user}\n`);
    const job = (await (await rest(`/slurm/v0.0.38/job/${body.job_id}`)).json()) as {
      jobs: Array<{ user_name: string; partition: string }>;
    };
    expect(job.jobs[0]).toMatchObject({ user_name: c.user, partition: 'gpu' });
  });

  it('refuses requests without a token or with one signed by another key', async () => {
    const none = await fetch(`${c.restUrl}/slurm/v0.0.38/jobs`);
    expect(none.status).toBe(401);
    const forged = await rest('/slurm/v0.0.38/jobs', {}, c.user, Buffer.alloc(32, 7));
    expect(forged.ok).toBe(false);
  });
});
