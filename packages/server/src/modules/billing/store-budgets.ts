import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { orgMembers, users } from '../../db/schema.js';
import { budgetAlerts, budgets } from './tables.js';

export type BudgetRow = typeof budgets.$inferSelect;

/** The budgets of some organizations (all when none named), by organization and project. */
export const budgetRows = (db: Db, orgs?: string[]) =>
  db
    .select()
    .from(budgets)
    .where(orgs ? inArray(budgets.orgName, orgs) : undefined)
    .orderBy(budgets.orgName, budgets.projectName);

/** Sets the budget of an organization (`project` '') or of one of its projects. */
export async function putBudget(
  db: Db,
  org: string,
  project: string,
  values: { credits: string; thresholds: number[] },
) {
  await db
    .insert(budgets)
    .values({ orgName: org, projectName: project, ...values })
    .onConflictDoUpdate({
      target: [budgets.orgName, budgets.projectName],
      set: { ...values, updatedAt: sql`now()` },
    });
}

/** Deletes a budget; false when there was none. */
export async function deleteBudget(db: Db, org: string, project: string) {
  const gone = await db
    .delete(budgets)
    .where(and(eq(budgets.orgName, org), eq(budgets.projectName, project)))
    .returning({ id: budgets.id });
  return gone.length > 0;
}

/** Records the alerts of thresholds crossed in a period; answers those not recorded before. */
export async function insertBudgetAlerts(
  tx: Pick<Db, 'insert'>,
  budgetId: BudgetRow['id'],
  period: string,
  thresholds: number[],
) {
  const fresh = await tx
    .insert(budgetAlerts)
    .values(thresholds.map((threshold) => ({ budgetId, period, threshold })))
    .onConflictDoNothing()
    .returning({ threshold: budgetAlerts.threshold });
  return fresh.map((f) => f.threshold);
}

/** The e-mail addresses of an organization's managers and admins. */
export async function managerEmails(db: Pick<Db, 'select'>, org: string) {
  const rows = await db
    .select({ email: users.email })
    .from(orgMembers)
    .innerJoin(users, eq(users.id, orgMembers.userId))
    .where(and(eq(orgMembers.orgName, org), inArray(orgMembers.role, ['manager', 'admin'])));
  return rows.map((r) => r.email);
}
