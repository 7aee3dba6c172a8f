import { and, eq, inArray, sql } from 'drizzle-orm';
import { FINAL_TASK_STATUSES, type TaskStatus } from '@orrery/contract';
import type { Db } from '../../../db/client.js';
import { jobs } from '../../../db/schema.js';
import { flowAttempts, flowTasks } from '../tables.js';

/** What the engine adds to a job of a task so that a resumed engine finds it (see `jobOfTask`). */
export const taskTag = (taskId: string) => `flow_task:${taskId}`;

const ACTIVE: TaskStatus[] = ['pending', 'running'];

/**
 * Attempts the engine has work in: pending or running, and cancelled ones whose tasks are not
 * all final yet (their jobs still to kill).
 */
export async function attemptsToDrive(db: Db) {
  const final = sql.join(
    FINAL_TASK_STATUSES.map((s) => sql`${s}`),
    sql`, `,
  );
  return db
    .select()
    .from(flowAttempts)
    .where(
      and(
        eq(flowAttempts.engine, true),
        sql`(${inArray(flowAttempts.result, ACTIVE)} or (${flowAttempts.result} = 'cancelled' and exists (
          select 1 from ${flowTasks} where ${flowTasks.attemptId} = ${flowAttempts.id}
          and (${flowTasks.statuses} -> -1 ->> 'status') not in (${final}))))`,
      ),
    )
    .orderBy(flowAttempts.createdAt);
}

/**
 * Moves an attempt to `result` unless it is no longer pending or running: a cancel written by
 * the API between the engine's read and this write stays.
 */
export async function settleAttempt(db: Db, attemptId: string, result: TaskStatus) {
  const [row] = await db
    .update(flowAttempts)
    .set({ result })
    .where(and(eq(flowAttempts.id, attemptId), inArray(flowAttempts.result, ACTIVE)))
    .returning();
  return row;
}

/** The job created for a task record, whether or not its id reached the record. */
export async function jobOfTask(db: Db, taskId: string) {
  const [row] = await db
    .select()
    .from(jobs)
    .where(sql`${jobs.tags} @> ${JSON.stringify([taskTag(taskId)])}::jsonb`)
    .limit(1);
  return row ?? null;
}
