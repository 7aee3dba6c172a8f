import { describe, expect, it } from 'vitest';
import { call, projectMember, processServer } from '../../../test/fixtures.js';
import { eventually } from '../../../test/app-instance.js';
import type { TestServer, TestUser } from '../../../test/harness.js';
import { jobById } from '../../jobs/store.js';
import { replaceAttempt } from '../store.js';
import {
  attemptReaches,
  jobsOfBake,
  started,
  startBake,
  tasksById,
} from '../../../test/flow-bakes.js';

/** The wire reference's three-task flow, its outputs carried through `needs` to the commands. */
const DIAMOND = `kind: batch
params:
  greeting: hello
tasks:
  - id: first
    image: busybox
    cmd: sh -c "echo ::set-output name=word::\${{ params.greeting }}"
  - id: left
    needs: [first]
    image: busybox
    cmd: sh -c "echo ::set-output name=got::left-\${{ needs.first.outputs.word }}"
  - id: right
    needs: [first]
    image: busybox
    cmd: sh -c "echo ::set-output name=got::right-\${{ needs.first.outputs.word }}"
  - id: last
    needs: [left, right]
    image: busybox
    bash: echo "::set-output name=both::\${{ needs.left.outputs.got }}+\${{ needs.right.outputs.got }}"
`;

describe('the bake engine on the process runtime', () => {
  let s: TestServer;
  let owner: TestUser;
  processServer((started) => ({ s, owner } = started));

  it('runs a diamond as jobs, passing outputs through needs, then a second bake is all cached', async () => {
    const bakeId = await started(s, owner, DIAMOND, {
      params: { greeting: 'hi' },
      batch: 'diamond',
    });
    const attempt = await attemptReaches(s, bakeId, ['succeeded', 'failed']);
    const tasks = await tasksById(s, attempt.id);
    expect(attempt.result).toBe('succeeded');
    expect(tasks.first!.outputs).toEqual({ word: 'hi' });
    expect(tasks.left!.outputs).toEqual({ got: 'left-hi' });
    expect(tasks.right!.outputs).toEqual({ got: 'right-hi' });
    expect(tasks.last!.outputs).toEqual({ both: 'left-hi+right-hi' });
    for (const t of Object.values(tasks)) {
      expect(t.history).toEqual(['pending', 'running', 'succeeded']);
      const job = await jobById(s.ctx.db, t.rawId!);
      expect(job?.tags).toEqual(
        expect.arrayContaining([
          'flow:diamond',
          `task:${t.yamlId}`,
          'project:demo-flow',
          `bake_id:${bakeId}`,
        ]),
      );
      expect(job?.owner).toBe(owner.username);
    }
    // left and right were submitted side by side: each before the other ended.
    const [l, r] = [
      await jobById(s.ctx.db, tasks.left!.rawId!),
      await jobById(s.ctx.db, tasks.right!.rawId!),
    ];
    expect(l!.createdAt.getTime()).toBeLessThan(r!.finishedAt!.getTime());
    expect(r!.createdAt.getTime()).toBeLessThan(l!.finishedAt!.getTime());

    const again = await started(s, owner, DIAMOND, {
      params: { greeting: 'hi' },
      batch: 'diamond',
    });
    const second = await attemptReaches(s, again, ['succeeded', 'failed']);
    const cached = await tasksById(s, second.id);
    expect(second.result).toBe('succeeded');
    expect(Object.values(cached).map((t) => t.history)).toEqual(Array(4).fill(['cached']));
    expect(cached.last!.outputs).toEqual({ both: 'left-hi+right-hi' });
    expect(cached.first!.rawId).toBe(tasks.first!.rawId);
    expect(await jobsOfBake(s, again)).toHaveLength(0);

    // Another param is another key: nothing of it is cached.
    const other = await started(s, owner, DIAMOND, {
      params: { greeting: 'yo' },
      batch: 'diamond',
    });
    const third = await attemptReaches(s, other, ['succeeded', 'failed']);
    expect((await tasksById(s, third.id)).last!.outputs).toEqual({ both: 'left-yo+right-yo' });
    expect(await jobsOfBake(s, other)).toHaveLength(4);
  }, 60_000);

  it('fans a matrix out into one task per value', async () => {
    const bakeId = await started(
      s,
      owner,
      `kind: batch
tasks:
  - id: fan_\${{ matrix.n }}
    strategy:
      matrix:
        n: [1, 2, 3]
    image: busybox
    cmd: sh -c "echo ::set-output name=n::\${{ matrix.n }}"
    cache:
      strategy: none
  - id: sum
    needs: [fan_1, fan_2, fan_3]
    image: busybox
    cmd: sh -c "echo ::set-output name=all::\${{ needs.fan_1.outputs.n }}\${{ needs.fan_2.outputs.n }}\${{ needs.fan_3.outputs.n }}"
    cache:
      strategy: none
`,
    );
    const attempt = await attemptReaches(s, bakeId, ['succeeded', 'failed']);
    const tasks = await tasksById(s, attempt.id);
    expect(Object.keys(tasks).sort()).toEqual(['fan_1', 'fan_2', 'fan_3', 'sum']);
    expect(tasks.fan_2!.outputs).toEqual({ n: '2' });
    expect(tasks.sum!.outputs).toEqual({ all: '123' });
    expect(await jobsOfBake(s, bakeId)).toHaveLength(4);
  }, 60_000);

  it('skips the dependants of a failed task and fails the attempt', async () => {
    const bakeId = await started(
      s,
      owner,
      `kind: batch
tasks:
  - id: ok
    image: busybox
    cmd: "true"
  - id: bad
    image: busybox
    cmd: sh -c "exit 3"
  - id: after_bad
    needs: [bad, ok]
    image: busybox
    cmd: "true"
  - id: after_after
    needs: [after_bad]
    image: busybox
    cmd: "true"
  - id: cleanup
    needs: [bad]
    enable: \${{ always() }}
    image: busybox
    cmd: sh -c "echo ::set-output name=saw::\${{ needs.bad.result }}"
`,
    );
    const attempt = await attemptReaches(s, bakeId, ['succeeded', 'failed']);
    const tasks = await tasksById(s, attempt.id);
    expect(attempt.result).toBe('failed');
    expect(tasks.ok!.status).toBe('succeeded');
    expect(tasks.bad!.history).toEqual(['pending', 'running', 'failed']);
    expect(tasks.after_bad!.history).toEqual(['skipped']);
    expect(tasks.after_after!.history).toEqual(['skipped']);
    expect(tasks.cleanup!.outputs).toEqual({ saw: 'failed' });
    expect(await jobsOfBake(s, bakeId)).toHaveLength(3);
  }, 60_000);

  it('cancels: the running job is killed, the attempt and its unfinished tasks cancelled', async () => {
    const bakeId = await started(
      s,
      owner,
      `kind: batch
tasks:
  - id: slow
    image: busybox
    cmd: sleep 60
  - id: next
    needs: [slow]
    image: busybox
    cmd: "true"
`,
    );
    const running = await eventually(
      async () => {
        const a = await attemptReaches(s, bakeId, ['running']);
        const t = (await tasksById(s, a.id)).slow;
        if (t?.status !== 'running') throw new Error('not running yet');
        return t;
      },
      200,
      50,
    );
    const busy = await call(s, 'POST', `/api/v1/flow/bakes/${bakeId}/restart`, owner);
    expect(busy.status).toBe(409);
    expect(busy.body.message).toBe('The bake is still running: restart it once it has finished');
    // What `PUT flow/attempts/replace` does for the console and `apolo-flow cancel`.
    await replaceAttempt(s.ctx.db, bakeId, 1, { result: 'cancelled' });
    const job = await eventually(
      async () => {
        const j = await jobById(s.ctx.db, running.rawId!);
        if (j?.status !== 'cancelled') throw new Error(`job is ${j?.status}`);
        return j;
      },
      200,
      50,
    );
    expect(job.reason).toBe('UserRequested');
    const tasks = await eventually(
      async () => {
        const t = await tasksById(s, running.attemptId);
        if (t.next?.status !== 'cancelled') throw new Error('not cancelled yet');
        return t;
      },
      200,
      50,
    );
    expect(tasks.slow!.history).toEqual(['pending', 'running', 'cancelled']);
    expect((await attemptReaches(s, bakeId, ['cancelled'])).result).toBe('cancelled');
    expect(await jobsOfBake(s, bakeId)).toHaveLength(1);
  }, 60_000);

  it('restarts from the failed task: a new attempt reruns it and its dependants only', async () => {
    const flag = `flag-${Date.now()}`;
    const bakeId = await started(
      s,
      owner,
      `kind: batch
tasks:
  - id: prepare
    image: busybox
    cmd: sh -c "echo ::set-output name=at::\${{ flow.flow_id }}"
  - id: check
    needs: [prepare]
    image: busybox
    volumes:
      - storage:${flag}:/flag
    cmd: sh -c "test -f /flag/ready"
  - id: report
    needs: [prepare, check]
    image: busybox
    cmd: sh -c "echo ::set-output name=from::\${{ needs.prepare.outputs.at }}"
`,
    );
    const first = await attemptReaches(s, bakeId, ['succeeded', 'failed']);
    expect(first.result).toBe('failed');
    const before = await tasksById(s, first.id);
    expect(before.check!.status).toBe('failed');
    expect(before.report!.status).toBe('skipped');

    const up = await s.app.inject({
      method: 'PUT',
      url: `/api/v1/storage/acme/vision/${flag}/ready?op=CREATE`,
      headers: { ...owner.headers, 'content-type': 'application/octet-stream' },
      payload: Buffer.from('yes'),
    });
    expect(up.statusCode, up.body).toBe(201);
    const restarted = await call(s, 'POST', `/api/v1/flow/bakes/${bakeId}/restart`, owner);
    expect(restarted.status, JSON.stringify(restarted.body)).toBe(201);
    expect(restarted.body.last_attempt).toMatchObject({ number: 2, executor_id: 'orrery-engine' });
    const second = await attemptReaches(s, bakeId, ['succeeded', 'failed'], 2);
    const after = await tasksById(s, second.id);
    expect(second.result).toBe('succeeded');
    // Copied as it was: the same job, the same history.
    expect(after.prepare!.rawId).toBe(before.prepare!.rawId);
    expect(after.prepare!.statuses).toEqual(before.prepare!.statuses);
    expect(after.check!.history).toEqual(['pending', 'running', 'succeeded']);
    expect(after.check!.rawId).not.toBe(before.check!.rawId);
    // `flow.flow_id` is the batch's: a pasted file without an `id` is the batch `batch`.
    expect(after.report!.outputs).toEqual({ from: 'batch' });
    expect(await jobsOfBake(s, bakeId)).toHaveLength(4);

    // Nothing left to rerun: every task copied, no job started.
    const again = await call(s, 'POST', `/api/v1/flow/bakes/${bakeId}/restart`, owner);
    expect(again.status).toBe(201);
    const third = await attemptReaches(s, bakeId, ['succeeded', 'failed'], 3);
    expect(third.result).toBe('succeeded');
    expect(await jobsOfBake(s, bakeId)).toHaveLength(4);
  }, 90_000);

  it('lets project writers bake; readers get 403, other organizations 404', async () => {
    const reader = await projectMember(s, 'reader');
    const r = await startBake(s, reader, DIAMOND);
    expect(r.status).toBe(403);
    const outsider = await s.user();
    expect((await startBake(s, outsider, DIAMOND)).status).toBe(404);
    const bakeId = await started(
      s,
      owner,
      'kind: batch\ntasks:\n  - id: a\n    image: busybox\n    cmd: "true"\n',
    );
    await attemptReaches(s, bakeId, ['succeeded']);
    expect((await call(s, 'POST', `/api/v1/flow/bakes/${bakeId}/restart`, reader)).status).toBe(
      403,
    );
    expect((await call(s, 'POST', `/api/v1/flow/bakes/${bakeId}/restart`, outsider)).status).toBe(
      404,
    );
    expect((await call(s, 'POST', '/api/v1/flow/bakes/bake-nope/restart', owner)).status).toBe(404);
  }, 30_000);
});
