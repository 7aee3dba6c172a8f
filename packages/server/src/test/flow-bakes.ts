import { expect } from 'vitest';
import { sql } from 'drizzle-orm';
import type { TaskStatus } from '@orrery/contract';
import { jobs } from '../db/schema.js';
import { call } from './fixtures.js';
import { eventually } from './app-instance.js';
import type { TestServer, TestUser } from './harness.js';
import { attemptByNumber, tasksOf } from '../modules/flows/store.js';

/** The tenancy() project, where the engine's test bakes run. */
export const PLACE = { cluster: 'default', org_name: 'acme', project_name: 'vision' };

/** `POST flow/bakes/start` of a pasted batch file; the answer's status and body. */
export const startBake = (
  s: TestServer,
  who: TestUser,
  content: string,
  extra: Record<string, unknown> = {},
) =>
  call(s, 'POST', '/api/v1/flow/bakes/start', who, {
    ...PLACE,
    flow_name: 'demo_flow',
    content,
    ...extra,
  });

/** Starts a bake that must be accepted; its id. */
export async function started(
  s: TestServer,
  who: TestUser,
  content: string,
  extra: Record<string, unknown> = {},
) {
  const r = await startBake(s, who, content, extra);
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  return r.body.id as string;
}

/** Waits until attempt `number` of a bake has one of `results`; the attempt. */
export function attemptReaches(
  s: TestServer,
  bakeId: string,
  results: TaskStatus[],
  number = -1,
  tries = 600,
) {
  return eventually(
    async () => {
      const a = await attemptByNumber(s.ctx.db, bakeId, number);
      if (!a || !results.includes(a.result)) throw new Error(`attempt is ${a?.result}`);
      return a;
    },
    tries,
    50,
  );
}

/** The tasks of an attempt by yaml id, with their status (the last item) and status history. */
export async function tasksById(s: TestServer, attemptId: string) {
  const rows = await tasksOf(s.ctx.db, attemptId);
  return Object.fromEntries(
    rows.map((t) => [
      t.yamlId,
      { ...t, status: t.statuses.at(-1)!.status, history: t.statuses.map((x) => x.status) },
    ]),
  );
}

/** The jobs a bake started, found by the tag the official client sets. */
export const jobsOfBake = (s: TestServer, bakeId: string) =>
  s.ctx.db
    .select()
    .from(jobs)
    .where(sql`${jobs.tags} @> ${JSON.stringify([`bake_id:${bakeId}`])}::jsonb`);
