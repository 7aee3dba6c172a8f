import { z } from 'zod';

/**
 * Monthly budgets of an organization and of its projects (an Orrery addition, docs/billing.md): thresholds
 * in percent of the budget; crossing one mails the organization managers once per month
 * (docs/billing.md, "Budgets"). Months are UTC calendar months.
 */

export const DEFAULT_THRESHOLDS = [50, 90, 100] as const;
export const MAX_THRESHOLD = 1000;
/** A budget at most this large, like a balance's numeric(20, 4). */
export const MAX_BUDGET_CREDITS = 1_000_000_000_000;
/**
 * Budgets are stored as `numeric(20, 4)`: a value with more decimal places would be rounded by
 * the column (0.00001 became a budget of 0), so it is refused instead.
 */
export const BUDGET_DECIMALS = 4;
/**
 * The highest percentage a budget reports: spending against a budget of 0 (stored before budgets
 * were checked to the column's precision) or against a tiny one is "over every threshold", never
 * Infinity or NaN.
 */
export const MAX_BUDGET_PERCENT = 1_000_000;

export const BUDGET_TEXTS = {
  creditsPositive: 'Budget must be a positive number of credits',
  creditsPrecision: `Budget must be a multiple of 0.0001 credits: budgets are stored with ${BUDGET_DECIMALS} decimal places`,
  creditsMax: `Budget must be at most ${MAX_BUDGET_CREDITS.toLocaleString('en-US')} credits`,
  thresholdInteger: `Each threshold must be a whole percentage from 1 to ${MAX_THRESHOLD}`,
  thresholdsSorted: 'Thresholds must be in increasing order, each given once',
  thresholdsNeeded: 'Give at least one threshold',
  projectUnknown: (org: string, project: string) =>
    `Project ${project} does not exist in organization ${org}`,
} as const;

const Threshold = z
  .number({ message: BUDGET_TEXTS.thresholdInteger })
  .int(BUDGET_TEXTS.thresholdInteger)
  .min(1, BUDGET_TEXTS.thresholdInteger)
  .max(MAX_THRESHOLD, BUDGET_TEXTS.thresholdInteger);

export const BudgetThresholds = z
  .array(Threshold)
  .min(1, BUDGET_TEXTS.thresholdsNeeded)
  .max(20)
  .refine((t) => t.every((v, i) => i === 0 || v > t[i - 1]!), BUDGET_TEXTS.thresholdsSorted);

/** The decimal places of a number as JS writes it (`1e-7` has 7). */
function decimalPlaces(n: number) {
  const [mantissa = '', exponent = '0'] = String(n).toLowerCase().split('e');
  return Math.max(0, (mantissa.split('.')[1]?.length ?? 0) - Number(exponent));
}

/** spent / credits in percent, rounded down; never a division by a budget of 0. */
export function budgetPercent(spent: number, credits: number) {
  if (!(spent > 0)) return 0;
  if (!(credits > 0)) return MAX_BUDGET_PERCENT;
  return Math.min(MAX_BUDGET_PERCENT, Math.floor((spent / credits) * 100 + 1e-9));
}

export const PutBudget = z.object({
  credits: z
    .number({ message: BUDGET_TEXTS.creditsPositive })
    .positive(BUDGET_TEXTS.creditsPositive)
    .max(MAX_BUDGET_CREDITS, BUDGET_TEXTS.creditsMax)
    .refine((v) => decimalPlaces(v) <= BUDGET_DECIMALS, BUDGET_TEXTS.creditsPrecision),
  thresholds: BudgetThresholds.default([...DEFAULT_THRESHOLDS]),
});
export type PutBudget = z.input<typeof PutBudget>;

export const Budget = z.object({
  org_name: z.string(),
  /** null: the organization's own budget. */
  project_name: z.string().nullable(),
  credits: z.string(),
  thresholds: z.array(z.number().int()),
  /** The month spent and crossed refer to, `YYYY-MM` (UTC). */
  period: z.string(),
  spent: z.string(),
  /** spent / credits, in percent, rounded down. */
  percent: z.number().int(),
  /** The highest threshold crossed this month, or null. */
  crossed: z.number().int().nullable(),
});
export type Budget = z.infer<typeof Budget>;
export const Budgets = z.object({ items: z.array(Budget) });
export type Budgets = z.infer<typeof Budgets>;

const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];

/** "November" for 2026-11: the banner's and the mail's name of a period. */
export const monthName = (period: string) => MONTHS[Number(period.slice(5, 7)) - 1] ?? period;

/** What the banner and the mail say of a budget, in either key case. */
export interface BudgetFacts {
  org: string;
  /** null: the organization's own budget. */
  project: string | null;
  credits: string;
  percent: number;
  period: string;
}

/** Who the budget is about: "acme", or "project vision of acme". */
export const budgetSubject = (b: Pick<BudgetFacts, 'org' | 'project'>) =>
  b.project ? `project ${b.project} of ${b.org}` : b.org;

/** "acme has used 92% of its 500-credit budget for November": the banner, the mail's subject. */
export function budgetSentence(b: BudgetFacts) {
  if (!(Number(b.credits) > 0)) {
    return `${budgetSubject(b)} has spent credits beyond its budget of 0 credits for ${monthName(b.period)}`;
  }
  const credits = Number(b.credits).toLocaleString('en-US', { maximumFractionDigits: 4 });
  return `${budgetSubject(b)} has used ${b.percent}% of its ${credits}-credit budget for ${monthName(b.period)}`;
}
