import { expect } from 'vitest';
import { call, JOB_SCOPE } from './fixtures.js';
import type { TestServer, TestUser } from './harness.js';
import type { AppPlan, AppRunner, InstanceContext } from '../modules/apps/runner.js';

/**
 * Runs a runner's plan as the apps service does (its jobs submitted through the jobs API by the
 * installer, its secrets created first), without the service: runner tests run in their own
 * branch of the work. Returns each role's job id once every job is running.
 */
export async function runPlan(
  s: TestServer,
  who: TestUser,
  runner: AppRunner,
  input: Record<string, unknown>,
  name: string,
): Promise<{ plan: AppPlan; ctx: InstanceContext; jobs: Record<string, string> }> {
  const ctx: InstanceContext = {
    instanceId: `test-${name}`,
    name,
    cluster: JOB_SCOPE.cluster_name,
    org: JOB_SCOPE.org_name,
    project: JOB_SCOPE.project_name,
    creator: who.username,
    runtime: 'process',
    preset: { name: 'cpu-small', cpu: 1, memoryBytes: 2 ** 30 },
    home: `storage:.apps/${runner.template}/${name}`,
    publicUrl: s.url,
  };
  const plan = await runner.plan(input, ctx);
  for (const [key, value] of Object.entries(plan.secrets ?? {})) {
    const r = await call(s, 'POST', '/api/v1/secrets', who, {
      key,
      value: Buffer.from(value).toString('base64'),
      ...JOB_SCOPE,
    });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
  }
  const jobs: Record<string, string> = {};
  for (const j of plan.jobs) {
    const r = await call(s, 'POST', '/api/v1/jobs?from_preset', who, {
      ...j.body,
      ...JOB_SCOPE,
      tags: [...j.body.tags, `instance_id:${ctx.instanceId}`],
    });
    expect(r.status, JSON.stringify(r.body)).toBe(202);
    jobs[j.role] = r.body.id as string;
  }
  for (const id of Object.values(jobs)) await until(s, who, id, (j) => j.status === 'running');
  return { plan, ctx, jobs };
}

/** Polls a job until `done`, failing with its last state. */
export async function until(
  s: TestServer,
  who: TestUser,
  id: string,
  done: (j: { status: string }) => boolean,
) {
  for (let i = 0; i < 600; i++) {
    const j = (await call(s, 'GET', `/api/v1/jobs/${id}`, who)).body;
    if (done(j)) return j;
    if (['failed', 'succeeded', 'cancelled'].includes(j.status)) break;
    await new Promise((r) => setTimeout(r, 50));
  }
  const j = (await call(s, 'GET', `/api/v1/jobs/${id}`, who)).body;
  throw new Error(`job ${id}: ${JSON.stringify(j.history ?? j)}`);
}

/** Retries `fn` until it stops throwing (an app answering once its server is up). */
export async function eventually<T>(fn: () => Promise<T>, tries = 100, delayMs = 100): Promise<T> {
  for (let i = 1; ; i++) {
    try {
      return await fn();
    } catch (e) {
      if (i >= tries) throw e;
      await new Promise((r) => setTimeout(r, delayMs));
    }
  }
}
