import { afterAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { startTestServer, type TestServer } from '../../../test/harness.js';
import { tenancy } from '../../../test/fixtures.js';
import { eventually } from '../../../test/app-instance.js';
import { attemptReaches, jobsOfBake, started, tasksById } from '../../../test/flow-bakes.js';
import { flowTasks } from '../tables.js';

/**
 * A server killed mid-bake: the job of the running task outlives it, and the next
 * server resumes the attempt with no task run twice, even when the crash came between a job's
 * creation and its id reaching the task.
 */
describe('a bake across a server restart', () => {
  let second: TestServer | undefined;
  afterAll(() => second?.stop());

  it('finishes the bake, each task with exactly one job', async () => {
    const first = await startTestServer({ ORRERY_RUNTIME: 'process' }, { persistent: true });
    const { owner } = await tenancy(first);
    const bakeId = await started(
      first,
      owner,
      `kind: batch
tasks:
  - id: long
    image: busybox
    cmd: sh -c "sleep 2; echo ::set-output name=done::yes"
  - id: after
    needs: [long]
    image: busybox
    cmd: sh -c "echo ::set-output name=saw::\${{ needs.long.outputs.done }}"
`,
    );
    const attempt = await attemptReaches(first, bakeId, ['running']);
    const long = await eventually(
      async () => {
        const t = (await tasksById(first, attempt.id)).long;
        if (t?.status !== 'running') throw new Error('not running yet');
        return t;
      },
      200,
      50,
    );
    await first.halt();
    // As if the server died right after creating the job, before recording its id.
    const { db } = (second = await startTestServer(
      { ORRERY_RUNTIME: 'process' },
      { restartOf: first.state },
    )).ctx;
    await db.update(flowTasks).set({ rawId: null }).where(eq(flowTasks.id, long.id));

    await second.app.ready();
    const done = await attemptReaches(second, bakeId, ['succeeded', 'failed']);
    const tasks = await tasksById(second, done.id);
    expect(done).toMatchObject({ id: attempt.id, number: 1, result: 'succeeded' });
    expect(tasks.long!.rawId).toBe(long.rawId);
    expect(tasks.long!.history).toEqual(['pending', 'running', 'succeeded']);
    expect(tasks.after!.outputs).toEqual({ saw: 'yes' });
    const jobs = await jobsOfBake(second, bakeId);
    expect(jobs.map((j) => j.tags.find((t) => t.startsWith('task:'))).sort()).toEqual([
      'task:after',
      'task:long',
    ]);
  }, 90_000);
});
