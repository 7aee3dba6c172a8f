import { and, eq, inArray, sql } from 'drizzle-orm';
import { FINAL_TASK_STATUSES, type TaskStatus } from '@orrery/contract';
import type { Db } from '../../../db/client.js';
import { flowAttempts, flowBakes, flowTasks } from '../tables.js';

// The engine's own reads and writes of the flow records, beside the flow API's (../store.ts).

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

/** Who the engine runs a bake's tasks as from now on (a bake the CLI recorded has no creator). */
export async function setBakeCreator(db: Db, bakeId: string, creatorId: string) {
  await db.update(flowBakes).set({ creatorId }).where(eq(flowBakes.id, bakeId));
}
