// Bake tasks on the slurm runtime: the engine's jobs go to the test cluster (scripts/slurm.mjs)
// as Slurm batch jobs, their outputs pass through `needs`, and a failing task fails the bake.
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestServer, type TestServer, type TestUser } from '../../test/harness.js';
import { call, tenancy } from '../../test/fixtures.js';
import { describeSlurm, slurmServerEnv } from '../../test/slurm-cluster.js';
import { attemptReaches, started, tasksById } from '../../test/flow-bakes.js';
import { jobById } from '../jobs/store.js';

/** Two tasks, the second fed by the first's output (so it can only run after it). */
const CHAIN = `kind: batch
tasks:
  - id: first
    image: ubuntu
    bash: echo "first ran"; echo "::set-output name=word::baked"
  - id: second
    needs: [first]
    image: ubuntu
    bash: echo "second got \${{ needs.first.outputs.word }}"; echo "::set-output name=got::\${{ needs.first.outputs.word }}-twice"
`;

const FAILING = `kind: batch
tasks:
  - id: bad
    image: ubuntu
    bash: echo "about to fail"; exit 3
  - id: after_bad
    needs: [bad]
    image: ubuntu
    cmd: "true"
`;

describeSlurm('bakes on the slurm runtime', (c) => {
  let s: TestServer;
  let owner: TestUser;
  let shared: string;

  const log = async (jobId: string) =>
    (
      await s.app.inject({
        method: 'GET',
        url: `/api/v1/jobs/${jobId}/log`,
        headers: owner.headers,
      })
    ).body;
  /** The job's output as the driver's Slurm job wrote it, in its directory on the shared disk. */
  const slurmOutput = (jobId: string) =>
    readFileSync(join(shared, 'jobs', jobId, 'out.log'), 'utf8');

  beforeAll(async () => {
    const server = slurmServerEnv(c, 'bakes');
    shared = server.shared;
    s = await startTestServer(server.env, { persistent: true });
    ({ owner } = await tenancy(s));
    // A first start takes a minute or more on the shared 2-core machine under load.
  }, 300_000);
  afterAll(async () => {
    await s?.stop();
    rmSync(shared, { recursive: true, force: true });
  });

  it('runs a task after the one it needs, each as a Slurm job, outputs passed on', async () => {
    const bakeId = await started(s, owner, CHAIN, { batch: 'chain' });
    const attempt = await attemptReaches(s, bakeId, ['succeeded', 'failed']);
    const tasks = await tasksById(s, attempt.id);
    expect(attempt.result).toBe('succeeded');
    expect(tasks.first!.outputs).toEqual({ word: 'baked' });
    expect(tasks.second!.outputs).toEqual({ got: 'baked-twice' });

    const first = (await jobById(s.ctx.db, tasks.first!.rawId!))!;
    const second = (await jobById(s.ctx.db, tasks.second!.rawId!))!;
    expect([first.runtime, second.runtime]).toEqual(['slurm', 'slurm']);
    // The second was created only once the first had finished.
    expect(second.createdAt.getTime()).toBeGreaterThanOrEqual(first.finishedAt!.getTime());
    expect(slurmOutput(first.id)).toContain('first ran\n');
    expect(slurmOutput(second.id)).toContain('second got baked\n');
    // The task's log as the client's `apolo-flow logs` reads it: the job's log through the API.
    expect(await log(second.id)).toContain('second got baked\n');
  }, 60_000);

  it('fails the bake with the failing task’s exit code, its dependants skipped', async () => {
    const bakeId = await started(s, owner, FAILING, { batch: 'failing' });
    const attempt = await attemptReaches(s, bakeId, ['succeeded', 'failed']);
    const tasks = await tasksById(s, attempt.id);
    expect(attempt.result).toBe('failed');
    expect(tasks.bad!.history).toEqual(['pending', 'running', 'failed']);
    expect(tasks.after_bad!.history).toEqual(['skipped']);
    const job = await call(s, 'GET', `/api/v1/jobs/${tasks.bad!.rawId}`, owner);
    expect(job.body).toMatchObject({
      status: 'failed',
      runtime: 'slurm',
      history: { exit_code: 3 },
    });
    expect(await log(tasks.bad!.rawId!)).toContain('about to fail\n');
  }, 60_000);
});
