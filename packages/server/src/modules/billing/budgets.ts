import {
  type Budget,
  budgetPercent,
  budgetSentence,
  budgetSubject,
  monthName,
} from '@orrery/contract';
import type { Db } from '../../db/client.js';
import type { Mail, Mailer } from '../../mail/mailer.js';
import { runEvery, type LoopHost } from './periodic.js';
import { budgetRows, insertBudgetAlerts, managerEmails, type BudgetRow } from './store-budgets.js';
import { spendingRows } from './store-usage.js';

/** How often every budget is compared with the month's usage. */
export const BUDGET_CHECK_MS = 60_000;

/** The UTC calendar month holding `now`: its `YYYY-MM` name and its bounds. */
export function monthOf(now: Date) {
  const from = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
  const until = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1));
  return { period: from.toISOString().slice(0, 7), from, until };
}

/** Credits used in the month by each organization ('' key) and each of its projects. */
async function spending(db: Db, orgs: string[], now: Date) {
  const { from, until } = monthOf(now);
  const spent = new Map<string, number>();
  if (orgs.length === 0) return spent;
  const rows = await spendingRows(db, orgs, from, until);
  for (const r of rows) {
    const credits = Number(r.credits);
    spent.set(`${r.org}/${r.project}`, (spent.get(`${r.org}/${r.project}`) ?? 0) + credits);
    spent.set(`${r.org}/`, (spent.get(`${r.org}/`) ?? 0) + credits);
  }
  return spent;
}

/** A budget as the wire shows it, against the month's spending. */
function wireOf(b: BudgetRow, spent: number, period: string): Budget {
  const percent = budgetPercent(spent, Number(b.credits));
  const crossed = b.thresholds.filter((t) => percent >= t);
  return {
    org_name: b.orgName,
    project_name: b.projectName || null,
    credits: Number(b.credits).toFixed(4),
    thresholds: b.thresholds,
    period,
    spent: spent.toFixed(4),
    percent,
    crossed: crossed.length ? crossed[crossed.length - 1]! : null,
  };
}

/** The budgets of some organizations (all when none named) against the month holding `now`. */
export async function budgetsOf(db: Db, orgs?: string[], now = new Date()) {
  const rows = await budgetRows(db, orgs);
  const spent = await spending(db, [...new Set(rows.map((r) => r.orgName))], now);
  const { period } = monthOf(now);
  return rows.map((r) => ({
    row: r,
    wire: wireOf(r, spent.get(`${r.orgName}/${r.projectName}`) ?? 0, period),
  }));
}

/** The mail to one organization manager about a threshold crossed. */
export function budgetMail(o: {
  to: string;
  budget: Budget;
  threshold: number;
  url: string;
}): Mail {
  const b = o.budget;
  const facts = { ...b, org: b.org_name, project: b.project_name };
  return {
    to: o.to,
    subject: `Budget alert: ${budgetSentence(facts)}`,
    text:
      `Hello,\n\n` +
      `The ${monthName(b.period)} budget of ${budgetSubject(facts)} crossed its ${o.threshold}% threshold.\n\n` +
      `Organization: ${b.org_name}\n` +
      (b.project_name ? `Project: ${b.project_name}\n` : '') +
      `Threshold: ${o.threshold}%\n` +
      `Spent: ${b.spent} credits (${Number(b.credits) > 0 ? `${b.percent}%` : 'the budget is 0 credits'})\n` +
      `Budget: ${b.credits} credits for ${b.period} (UTC)\n\n` +
      `See the usage and change the budget on the billing page:\n\n${o.url}\n`,
    links: [o.url],
  };
}

export interface BudgetCheckDeps {
  db: Db;
  mailer: Mailer;
  publicUrl: string;
}

/**
 * Compares every budget with the month's usage and, for a threshold newly crossed, records the
 * alert and mails the organization managers about the highest one. The alert row and the mails
 * share a transaction: a replica that checks at the same time waits on the row's unique key and
 * then finds it taken, and a mail that fails leaves no row, so the next check sends it again.
 * Thresholds crossed together (a jump from 10% to 95%) are recorded at once and mailed as one.
 * Returns the number of mails sent.
 */
export async function checkBudgets(deps: BudgetCheckDeps, now = new Date()) {
  let sent = 0;
  for (const { row, wire } of await budgetsOf(deps.db, undefined, now)) {
    const crossed = row.thresholds.filter((t) => wire.percent >= t);
    if (crossed.length === 0) continue;
    sent += await deps.db.transaction(async (tx) => {
      const fresh = await insertBudgetAlerts(tx, row.id, wire.period, crossed);
      if (fresh.length === 0) return 0;
      const threshold = Math.max(...fresh);
      const to = await managerEmails(tx, row.orgName);
      const url = `${deps.publicUrl}/org-billing`;
      for (const address of to) {
        await deps.mailer.send(budgetMail({ to: address, budget: wire, threshold, url }));
      }
      return to.length;
    });
  }
  return sent;
}

/** Checks budgets just after the start and every BUDGET_CHECK_MS, one check at a time. */
export const startBudgetChecker = (
  deps: BudgetCheckDeps,
  host: LoopHost,
  everyMs = BUDGET_CHECK_MS,
) => runEvery(() => checkBudgets(deps), everyMs, host, 'budget check');
