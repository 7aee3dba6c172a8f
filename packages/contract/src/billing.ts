import { z } from 'zod';

/**
 * The usage query and reports of `/apis/billing/v1` and Apolo's `POST /api/v1/metrics/credits/usage`
 * (docs/billing.md, "Usage and reports API"). Credits are decimal strings, as balances are.
 */

export const USAGE_CATEGORIES = ['jobs', 'apps', 'storage', 'disks'] as const;
export const UsageCategory = z.enum(USAGE_CATEGORIES, {
  error: `Category must be one of ${USAGE_CATEGORIES.join(', ')}`,
});
export type UsageCategory = z.infer<typeof UsageCategory>;

export const USAGE_GROUPS = ['category', 'project', 'user', 'day', 'month'] as const;
export const UsageGroup = z.enum(USAGE_GROUPS, {
  error: `group_by must be one of ${USAGE_GROUPS.join(', ')}`,
});
export type UsageGroup = z.infer<typeof UsageGroup>;

export const DATE_FORMAT_MESSAGE =
  'must be Unix seconds, YYYY-MM-DD or YYYY-MM-DDTHH:MM:SS (UTC unless it ends in Z or an offset)';
const UNIX_SECONDS = /^\d{1,12}$/;
// Python's `datetime.isoformat()` (what Apolo's clients send) adds fractions and an offset; a
// bare date is midnight, as Python's request models read it.
const DATE_TIME =
  /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2}):(\d{2})(?:\.\d{1,9})?(Z|[+-]\d{2}:?\d{2})?)?$/;

/** Unix seconds (a number or its digits) or `YYYY-MM-DDTHH:MM:SS` in UTC; null when neither. */
export function parseUsageDate(v: unknown): Date | null {
  if (typeof v === 'number') return Number.isInteger(v) && v >= 0 ? new Date(v * 1000) : null;
  if (typeof v !== 'string') return null;
  if (UNIX_SECONDS.test(v)) return new Date(Number(v) * 1000);
  const m = DATE_TIME.exec(v);
  if (!m) return null;
  const [y, mo, d, h, mi, s] = m.slice(1, 7).map((x) => Number(x ?? 0)) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  const date = new Date(Date.UTC(y, mo - 1, d, h, mi, s));
  // Date.UTC rolls 2026-02-30 over to March: a date that does not exist is refused instead.
  const exact =
    date.getUTCFullYear() === y &&
    date.getUTCMonth() === mo - 1 &&
    date.getUTCDate() === d &&
    date.getUTCHours() === h &&
    date.getUTCMinutes() === mi &&
    date.getUTCSeconds() === s;
  if (!exact) return null;
  const offset = /^([+-])(\d{2}):?(\d{2})$/.exec(m[7] ?? '');
  if (!offset) return date;
  const minutes = (Number(offset[2]) * 60 + Number(offset[3])) * (offset[1] === '-' ? -1 : 1);
  return new Date(date.getTime() - minutes * 60_000);
}

const usageDate = (field: string) =>
  z.union([z.string(), z.number()], { error: `${field} is required` }).transform((v, ctx) => {
    const d = parseUsageDate(v);
    if (d) return d;
    ctx.addIssue({ code: 'custom', message: `${field} ${DATE_FORMAT_MESSAGE}` });
    return z.NEVER;
  });

const Period = z.object({ start_date: usageDate('start_date'), end_date: usageDate('end_date') });

/** A period: the end strictly after the start (records starting in [start, end) count). */
const endAfterStart: [
  (q: { start_date: Date; end_date: Date }) => boolean,
  { message: string; path: string[] },
] = [
  (q) => q.end_date > q.start_date,
  { message: 'end_date must be after start_date', path: ['end_date'] },
];

/** A query parameter that may repeat: one value or several. */
const many = <T extends z.ZodType>(item: T) =>
  z.preprocess((v) => (v === undefined ? [] : Array.isArray(v) ? v : [v]), z.array(item));

const optionalName = z.string().min(1).max(253).optional();

/**
 * Whose usage: an organization's (optionally on one cluster or project), or, without org_name, a
 * whole cluster's across its organizations (its managers and system administrators; reports).
 */
const Scope = z.object({
  org_name: z.string().min(1, 'org_name is required').max(253).optional(),
  cluster_name: optionalName,
  project_name: optionalName,
});
const orgOrCluster: [
  (q: { org_name?: string; cluster_name?: string }) => boolean,
  { message: string; path: string[] },
] = [
  (q) => !!(q.org_name || q.cluster_name),
  { message: 'org_name is required', path: ['org_name'] },
];

export const UsageQuery = Period.extend({
  ...Scope.shape,
  project_name: optionalName,
  category: UsageCategory.optional(),
  group_by: many(UsageGroup).refine((g) => !(g.includes('day') && g.includes('month')), {
    message: 'Group by day or by month, not both',
  }),
  format: z.enum(['json', 'csv'], { error: 'format must be json or csv' }).default('json'),
})
  .refine(...endAfterStart)
  .refine(...orgOrCluster);
export type UsageQuery = z.infer<typeof UsageQuery>;

/** One group: only the keys of the groups asked are present. */
export const UsageItem = z.object({
  project_name: z.string().optional(),
  user_name: z.string().nullable().optional(),
  category: z.string().optional(),
  /** `YYYY-MM-DD` by day, `YYYY-MM` by month. */
  date: z.string().optional(),
  credits: z.string(),
});
export type UsageItem = z.infer<typeof UsageItem>;

export const ClusterUsage = z.object({
  cluster_name: z.string(),
  usage: z.array(UsageItem),
  total: z.string(),
});
export const Usage = z
  .object({ clusters: z.array(ClusterUsage), total: z.string() })
  .meta({ id: 'Usage' });
export type Usage = z.infer<typeof Usage>;

/** The most expensive resources of a period (the reports' "top" table). */
export const TopQuery = Period.extend({
  ...Scope.shape,
  category: UsageCategory.optional(),
  limit: z.coerce
    .number({ error: 'limit must be a number from 1 to 100' })
    .int('limit must be a number from 1 to 100')
    .min(1, 'limit must be a number from 1 to 100')
    .max(100, 'limit must be a number from 1 to 100')
    .default(10),
})
  .refine(...endAfterStart)
  .refine(...orgOrCluster);
export type TopQuery = z.infer<typeof TopQuery>;

export const TopResource = z.object({
  category: z.string(),
  project_name: z.string(),
  resource_id: z.string(),
  /** What a person calls it: a job's name (null for a job without one; the id is its name). */
  resource_name: z.string().nullable(),
  user_name: z.string().nullable(),
  credits: z.string(),
});
export const TopResources = z.array(TopResource);

/** An optional field a Python client sends as null when unset (its models dump `None`). */
const nullAbsent = <T extends z.ZodType>(item: T) =>
  z.preprocess((v) => (v === null ? undefined : v), item.optional());

/** Apolo's reports call: the credits of each resource over a period. */
export const CreditsUsageRequest = Period.extend({
  category_name: nullAbsent(UsageCategory),
  org_name: nullAbsent(z.string().min(1, 'org_name must not be empty').max(253)),
  project_name: nullAbsent(z.string().min(1, 'project_name must not be empty').max(253)),
}).refine(...endAfterStart);
export type CreditsUsageRequest = z.infer<typeof CreditsUsageRequest>;

export const CreditsUsageRow = z.object({
  category_name: z.string(),
  org_name: z.string(),
  project_name: z.string(),
  user_name: z.string().nullable(),
  resource_id: z.string(),
  credits: z.string(),
});
export const CreditsUsage = z.array(CreditsUsageRow);

/** Node-pool utilisation over a period (a cluster's reports): its managers and administrators. */
export const PoolSamplesQuery = Period.extend({
  cluster_name: z
    .string({ error: 'cluster_name is required' })
    .min(1, 'cluster_name is required')
    .max(253),
}).refine(...endAfterStart);
export type PoolSamplesQuery = z.infer<typeof PoolSamplesQuery>;

/** One point: the average over its step of what the pool's jobs held, and the pool's size. */
export const PoolSample = z.object({
  at: z.string(),
  cpu_used: z.number(),
  cpu_total: z.number(),
  memory_used: z.number(),
  memory_total: z.number(),
  gpu_used: z.number(),
  gpu_total: z.number(),
});
export const PoolUtilisation = z
  .object({
    /** Seconds between points: five minutes, or longer so a period has at most 300 points. */
    step: z.number(),
    pools: z.array(z.object({ pool_name: z.string(), samples: z.array(PoolSample) })),
  })
  .meta({ id: 'PoolUtilisation' });
export type PoolUtilisation = z.infer<typeof PoolUtilisation>;
