import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer, type TestUser } from '../test/harness.js';
import { call, projectMember, tenancy } from '../test/fixtures.js';
import { PLACE, attemptReaches, startBake } from '../test/flow-bakes.js';
import { flowAttempts, flowTasks } from '../modules/flows/tables.js';

/** A task fanned out by a matrix of `axes` lists of `size` values; never run (enable false). */
function matrixBatch(axes: number, size: number, tasks = 1) {
  const names = Array.from({ length: axes }, (_, i) => `a${i}`);
  const values = `[${Array.from({ length: size }, (_, v) => v).join(', ')}]`;
  const id = names.map((n) => `\${{ matrix.${n} }}`).join('_');
  const task = (t: number) => `  - id: t${t}_${id}
    strategy:
      matrix:
${names.map((n) => `        ${n}: ${values}`).join('\n')}
    enable: \${{ false }}
    image: busybox
    cmd: echo never`;
  return `kind: batch\ntasks:\n${Array.from({ length: tasks }, (_, t) => task(t)).join('\n')}\n`;
}

describe('the size of a bake', () => {
  let s: TestServer;
  let writer: TestUser;

  beforeAll(async () => {
    s = await startTestServer({}, { listen: true });
    await tenancy(s);
    writer = await projectMember(s, 'writer');
  });
  afterAll(() => s?.stop());

  it('a writer cannot start a bake of 10,000 tasks (10×10×10×10 matrix): a 400 names the limit and the count', async () => {
    const huge = matrixBatch(4, 10);
    const started = await startBake(s, writer, huge);
    expect(started.status, started.body.message).toBe(400);
    expect(started.body.message).toMatch(/10000 combinations/);
    expect(started.body.message).toMatch(/at most 1000/);
    const params = await call(s, 'POST', '/api/v1/flow/bakes/params', writer, {
      ...PLACE,
      content: huge,
    });
    expect(params.status, JSON.stringify(params.body)).toBe(400);
    expect(params.body.message).toBe(started.body.message);

    // Many tasks of small matrices add up: the bake's own limit.
    const wide = await startBake(s, writer, matrixBatch(2, 10, 11));
    expect(wide.status, wide.body.message).toBe(400);
    expect(wide.body.message).toMatch(/1100 tasks/);
    expect(wide.body.message).toMatch(/at most 1000/);
    // Nothing was recorded.
    expect((await s.ctx.db.select({ n: count() }).from(flowAttempts))[0]!.n).toBe(0);
  });

  it("a writer's bake of 1,000 tasks does not starve the server: /readyz answers while its tasks are recorded", async () => {
    const started = await startBake(s, writer, matrixBatch(3, 10));
    expect(started.status, started.body.message).toBe(201);
    const attempt = await attemptReaches(s, started.body.id, ['pending', 'running', 'succeeded']);
    const recorded = async () =>
      (
        await s.ctx.db
          .select({ n: count() })
          .from(flowTasks)
          .where(eq(flowTasks.attemptId, attempt.id))
      )[0]!.n;
    // Readiness over the network, as a load balancer asks it, while the engine records the
    // tasks: each answer is followed by a look at how many tasks were recorded by then.
    const seen: number[] = [];
    for (;;) {
      const ready = await fetch(`${s.url}/readyz`);
      expect(ready.status).toBe(200);
      const n = await recorded();
      seen.push(n);
      if (n === 1000) break;
    }
    // Some answer came in the middle of the expansion, not only before or after it.
    expect(
      seen.some((n) => n > 0 && n < 1000),
      JSON.stringify(seen),
    ).toBe(true);
    const done = await attemptReaches(s, started.body.id, ['succeeded', 'failed']);
    expect(done.result).toBe('succeeded');
  }, 120_000);
});
