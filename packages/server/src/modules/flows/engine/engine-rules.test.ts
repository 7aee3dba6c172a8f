import { describe, expect, it } from 'vitest';
import { and, eq, sql } from 'drizzle-orm';
import { call, processServer } from '../../../test/fixtures.js';
import type { TestServer, TestUser } from '../../../test/harness.js';
import { clusterOrgs } from '../../../db/schema.js';
import { historyOf, jobById } from '../../jobs/store.js';
import { flowCacheEntries } from '../tables.js';
import { attemptReaches, jobsOfBake, started, tasksById } from '../../../test/flow-bakes.js';

/** Sets the organization's running-jobs quota on the test cluster (null: none). */
const setQuota = (s: TestServer, quota: number | null) =>
  s.ctx.db
    .update(clusterOrgs)
    .set({ quotaTotalRunningJobs: quota })
    .where(and(eq(clusterOrgs.clusterName, 'default'), eq(clusterOrgs.orgName, 'acme')));

describe('the bake engine: quota, job tags, cache life span', () => {
  let s: TestServer;
  let owner: TestUser;
  processServer((started) => ({ s, owner } = started));

  it('holds a ready task pending while the jobs quota is full and starts it when a job ends', async () => {
    await setQuota(s, 1);
    try {
      const bakeId = await started(
        s,
        owner,
        `kind: batch
tasks:
  - id: one
    image: busybox
    cmd: sleep 1
    cache:
      strategy: none
  - id: two
    image: busybox
    cmd: sleep 1
    cache:
      strategy: none
`,
      );
      const attempt = await attemptReaches(s, bakeId, ['succeeded', 'failed']);
      const tasks = await tasksById(s, attempt.id);
      expect(attempt.result).toBe('succeeded');
      expect(tasks.one!.history).toEqual(['pending', 'running', 'succeeded']);
      expect(tasks.two!.history).toEqual(['pending', 'running', 'succeeded']);
      const jobs = [
        await jobById(s.ctx.db, tasks.one!.rawId!),
        await jobById(s.ctx.db, tasks.two!.rawId!),
      ];
      // Both were submitted together; the one that waited started only after the other ended.
      const [first, second] = jobs.sort(
        (a, b) => a!.startedAt!.getTime() - b!.startedAt!.getTime(),
      );
      expect(second!.createdAt.getTime()).toBeLessThan(first!.finishedAt!.getTime());
      expect(second!.startedAt!.getTime()).toBeGreaterThanOrEqual(first!.finishedAt!.getTime());
      const history = (await historyOf(s.ctx.db, [second!.id])).get(second!.id) ?? [];
      expect(history.map((h) => h.reason)).toContain('QuotaExhausted');
    } finally {
      await setQuota(s, null);
    }
  }, 60_000);

  it('tags jobs as the client does, whatever the case, and the jobs list finds them by flow and tags', async () => {
    const bakeId = await started(
      s,
      owner,
      `kind: batch
tasks:
  - id: Prep_Data
    image: busybox
    cmd: sh -c "echo ::set-output name=ids::\${{ flow.flow_id }}/\${{ flow.project_id }}/\${{ project.id }}"
    cache:
      strategy: none
`,
      { flow_name: 'My_Flow', batch: 'Train-Set' },
    );
    const attempt = await attemptReaches(s, bakeId, ['succeeded', 'failed']);
    const task = (await tasksById(s, attempt.id)).Prep_Data!;
    expect(attempt.result).toBe('succeeded');
    // The client's contexts: the batch's id (`-` made `_`) and the project.yml id.
    expect(task.outputs).toEqual({ ids: 'Train_Set/My_Flow/My_Flow' });
    const [job] = await jobsOfBake(s, bakeId);
    expect(job!.tags).toEqual(
      expect.arrayContaining(['project:my-flow', 'flow:train-set', 'task:prep-data']),
    );

    const list = async (query: string) => {
      const r = await call(s, 'GET', `/api/v1/jobs?status=succeeded&${query}`, owner);
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      return (r.body.jobs as { id: string }[]).map((j) => j.id);
    };
    // `flowName` as the console sends it: the flow's name as written, capitals and `_`.
    expect(await list('flow_name=My_Flow')).toEqual([job!.id]);
    expect(await list('flow_name=My_Flow&tag=task:prep-data&tag=flow:train-set')).toEqual([
      job!.id,
    ]);
    // Several tags are AND-ed: one that does not match leaves nothing.
    expect(await list('flow_name=My_Flow&tag=task:prep-data&tag=flow:other')).toEqual([]);
    expect(await list('flow_name=Other_Flow')).toEqual([]);
  }, 60_000);

  it('reuses a cache entry younger than the life span only: an expired one runs the task again', async () => {
    const batch = `kind: batch
tasks:
  - id: step
    image: busybox
    cmd: sh -c "echo ::set-output name=at::run"
    cache:
      life_span: 1h
`;
    const opts = { flow_name: 'cache_flow', batch: 'expiry' };
    const bake = async () => {
      const id = await started(s, owner, batch, opts);
      const attempt = await attemptReaches(s, id, ['succeeded', 'failed']);
      expect(attempt.result).toBe('succeeded');
      return { id, step: (await tasksById(s, attempt.id)).step! };
    };
    const first = await bake();
    expect(first.step.history).toEqual(['pending', 'running', 'succeeded']);
    const fresh = await bake();
    expect(fresh.step.history).toEqual(['cached']);
    expect(fresh.step.rawId).toBe(first.step.rawId);

    // The entry ages past the task's life span of an hour.
    await s.ctx.db
      .update(flowCacheEntries)
      .set({ createdAt: sql`now() - interval '61 minutes'` })
      .where(and(eq(flowCacheEntries.batch, 'expiry'), eq(flowCacheEntries.taskId, 'step')));
    const expired = await bake();
    expect(expired.step.history).toEqual(['pending', 'running', 'succeeded']);
    expect(expired.step.rawId).not.toBe(first.step.rawId);
    expect(await jobsOfBake(s, expired.id)).toHaveLength(1);

    // The run wrote the entry anew: the next bake reuses it.
    const renewed = await bake();
    expect(renewed.step.history).toEqual(['cached']);
    expect(renewed.step.rawId).toBe(expired.step.rawId);
  }, 60_000);
});
