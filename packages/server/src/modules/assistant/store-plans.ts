import { and, eq, gt, isNull, lt } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { assistantPlans, type PlanRow } from './tables.js';

// The assistant's plans (plans.ts): changes a tool worked out, kept until confirmed or expired.

export async function insertPlan(db: Db, values: typeof assistantPlans.$inferInsert) {
  const [row] = await db.insert(assistantPlans).values(values).returning();
  return row;
}

export async function deletePlansExpiredBefore(db: Db, before: Date) {
  await db.delete(assistantPlans).where(lt(assistantPlans.expiresAt, before));
}

export async function planById(db: Db, id: string): Promise<PlanRow | undefined> {
  const [row] = await db.select().from(assistantPlans).where(eq(assistantPlans.id, id));
  return row;
}

/**
 * Marks a plan consumed if it is neither consumed nor expired at `now`; undefined when it was.
 * Conditional, so two confirmations racing on two replicas take it once.
 */
export async function takePlan(db: Db, id: string, now: Date): Promise<PlanRow | undefined> {
  const [taken] = await db
    .update(assistantPlans)
    .set({ consumedAt: now })
    .where(
      and(
        eq(assistantPlans.id, id),
        isNull(assistantPlans.consumedAt),
        gt(assistantPlans.expiresAt, now),
      ),
    )
    .returning();
  return taken;
}
