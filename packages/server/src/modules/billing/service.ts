import { BUDGET_TEXTS } from '@orrery/contract';
import type { Db } from '../../db/client.js';
import { notFound } from '../../http/errors.js';
import { orgsOfUser } from '../orgs/store.js';
import { clustersOfProject } from '../projects/store.js';
import { budgetsOf } from './budgets.js';
import { deleteBudget, putBudget } from './store-budgets.js';
import { ledgerPage } from './store-ledger.js';
import { creditsUsage, topResources, usageOf } from './store-usage.js';

/** The reports the billing routes answer as the stores sum them up. */
export { creditsUsage, ledgerPage, topResources, usageOf };

/** The names of the organizations a user is a member of. */
export const memberOrgNames = async (db: Db, userId: string) =>
  (await orgsOfUser(db, userId)).map((o) => o.name);

/** The clusters holding a project of that name in the organization (a budget spans them). */
export const projectClusters = (db: Db, org: string, project: string) =>
  clustersOfProject(db, org, project);

/**
 * Sets the budget of an organization, or of one of its projects (which must exist on some
 * cluster); answers it against the month's spending.
 */
export async function setBudget(
  db: Db,
  p: { org: string; project?: string },
  b: { credits: number; thresholds: number[] },
) {
  if (p.project && (await clustersOfProject(db, p.org, p.project)).length === 0) {
    throw notFound(BUDGET_TEXTS.projectUnknown(p.org, p.project));
  }
  await putBudget(db, p.org, p.project ?? '', {
    credits: String(b.credits),
    thresholds: b.thresholds,
  });
  const all = await budgetsOf(db, [p.org]);
  return all.find((x) => x.wire.project_name === (p.project ?? null))!.wire;
}

/** Deletes the budget of an organization or of one of its projects; 404 when there is none. */
export async function removeBudget(db: Db, p: { org: string; project?: string }) {
  if (!(await deleteBudget(db, p.org, p.project ?? ''))) throw notFound('No such budget');
}
