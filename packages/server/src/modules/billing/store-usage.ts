import { and, asc, desc, eq, gte, inArray, lt, sql, type SQL } from 'drizzle-orm';
import type {
  CreditsUsageRequest,
  TopQuery,
  UsageGroup,
  UsageItem,
  UsageQuery,
} from '@orrery/contract';
import type { Db } from '../../db/client.js';
import { jobs, usageRecords, users } from '../../db/schema.js';

/**
 * The usage query, the top resources and Apolo's metrics call over `usage_records`: aggregated in
 * SQL (one row per group, whatever the number of records), credits summed as `numeric` and
 * carried as decimal strings so no float ever rounds a balance.
 */

const r = usageRecords;
const credits = sql<string>`sum(${r.credits})::numeric(20, 4)::text`;
/**
 * Days and months are UTC ones, whatever the database session's time zone. A day is a bin of
 * 24 hours from a UTC midnight (integer arithmetic on each row, no time zone rules); both are
 * grouped as timestamps and formatted once per group.
 */
const utcDay = sql`date_bin('1 day', ${r.startedAt}, timestamptz '2000-01-01 00:00:00+00')`;
const utcMonth = sql`date_trunc('month', ${r.startedAt} at time zone 'UTC')`;

/** Each group: what rows are grouped by, what the group answers, and under which wire key. */
const GROUPS: Record<UsageGroup, { key: keyof UsageItem; expr: SQL; out?: SQL }> = {
  project: { key: 'project_name', expr: sql`${r.projectName}` },
  category: { key: 'category', expr: sql`${r.category}` },
  user: { key: 'user_name', expr: sql`${users.username}` },
  day: { key: 'date', expr: utcDay, out: sql`to_char(${utcDay} at time zone 'UTC', 'YYYY-MM-DD')` },
  month: { key: 'date', expr: utcMonth, out: sql`to_char(${utcMonth}, 'YYYY-MM')` },
};

interface Filters {
  orgs?: string[];
  cluster_name?: string;
  project_name?: string;
  category?: string;
  start_date: Date;
  end_date: Date;
}

/** Records starting in [start, end) of the organizations (all when `orgs` is absent). */
function where(f: Filters) {
  return and(
    f.orgs ? inArray(r.orgName, f.orgs) : undefined,
    f.cluster_name ? eq(r.clusterName, f.cluster_name) : undefined,
    f.project_name ? eq(r.projectName, f.project_name) : undefined,
    f.category ? eq(r.category, f.category) : undefined,
    gte(r.startedAt, f.start_date),
    lt(r.startedAt, f.end_date),
  );
}

/** Sums of four-decimal strings, exactly (as ten-thousandths in a bigint). */
export function addCredits(values: string[]): string {
  let sum = 0n;
  for (const v of values) {
    const [int = '0', frac = ''] = v.replace('-', '').split('.');
    const n = BigInt(int) * 10_000n + BigInt(frac.padEnd(4, '0').slice(0, 4));
    sum += v.startsWith('-') ? -n : n;
  }
  const abs = sum < 0n ? -sum : sum;
  const frac = String(abs % 10_000n).padStart(4, '0');
  return `${sum < 0n ? '-' : ''}${abs / 10_000n}.${frac}`;
}

export interface ClusterUsageRows {
  cluster_name: string;
  usage: UsageItem[];
  total: string;
}

/** Usage per cluster, grouped as asked (the groups keep the order of `GROUPS`). */
export async function usageOf(db: Db, q: UsageQuery) {
  const asked = (Object.keys(GROUPS) as UsageGroup[]).filter((g) => q.group_by.includes(g));
  const exprs = asked.map((g) => GROUPS[g].expr);
  const dates: UsageGroup[] = asked.filter((g) => g === 'day' || g === 'month');
  const others = asked.filter((g) => !dates.includes(g));
  const base = db
    .select({
      cluster: r.clusterName,
      groups: sql<unknown[]>`json_build_array(${sql.join(
        asked.length ? asked.map((g) => GROUPS[g].out ?? GROUPS[g].expr) : [sql`null`],
        sql`, `,
      )})`,
      credits,
    })
    .from(r);
  const joined = asked.includes('user') ? base.leftJoin(users, eq(users.id, r.userId)) : base;
  const rows = await joined
    .where(where({ ...q, orgs: q.org_name ? [q.org_name] : undefined }))
    .groupBy(r.clusterName, ...exprs)
    // Over time first, as the charts and the table read it.
    .orderBy(asc(r.clusterName), ...[...dates, ...others].map((g) => asc(GROUPS[g].expr)));

  const clusters = new Map<string, ClusterUsageRows>();
  for (const row of rows) {
    const c = clusters.get(row.cluster) ?? { cluster_name: row.cluster, usage: [], total: '0' };
    clusters.set(row.cluster, c);
    const item: Record<string, unknown> = {};
    asked.forEach((g, i) => (item[GROUPS[g].key] = row.groups[i] ?? null));
    c.usage.push({ ...item, credits: row.credits } as UsageItem);
  }
  const out = [...clusters.values()].map((c) => ({
    ...c,
    total: addCredits(c.usage.map((u) => u.credits)),
  }));
  return { clusters: out, total: addCredits(out.map((c) => c.total)), groups: asked };
}

/**
 * The resources that cost most in a period: jobs, app jobs, storage of a project, disks. A job
 * is charged under its id (Apolo's `resource_id`); its name, when it has one, comes beside it.
 */
export async function topResources(db: Db, q: TopQuery) {
  const sum = sql`sum(${r.credits})`;
  return db
    .select({
      category: r.category,
      project_name: r.projectName,
      resource_id: r.resourceId,
      resource_name: jobs.name,
      user_name: users.username,
      credits,
    })
    .from(r)
    .leftJoin(users, eq(users.id, r.userId))
    .leftJoin(jobs, and(eq(r.category, 'jobs'), eq(jobs.id, r.resourceId)))
    .where(where({ ...q, orgs: q.org_name ? [q.org_name] : undefined }))
    .groupBy(r.category, r.projectName, r.resourceId, jobs.name, users.username)
    .orderBy(desc(sum), asc(r.resourceId))
    .limit(q.limit);
}

/** Apolo's reports call: one row per resource and user of the period, `orgs` absent for all. */
export async function creditsUsage(db: Db, q: CreditsUsageRequest, orgs?: string[]) {
  return db
    .select({
      category_name: r.category,
      org_name: r.orgName,
      project_name: r.projectName,
      user_name: users.username,
      resource_id: r.resourceId,
      credits,
    })
    .from(r)
    .leftJoin(users, eq(users.id, r.userId))
    .where(
      where({
        orgs: q.org_name ? [q.org_name] : orgs,
        project_name: q.project_name,
        category: q.category_name,
        start_date: q.start_date,
        end_date: q.end_date,
      }),
    )
    .groupBy(r.category, r.orgName, r.projectName, users.username, r.resourceId)
    .orderBy(asc(r.orgName), asc(r.projectName), asc(r.category), asc(r.resourceId));
}

/**
 * Records one period of a resource's usage, unless that period (the same resource and start) is
 * already recorded: false then, and nothing changes.
 */
export async function insertUsageRecord(
  tx: Pick<Db, 'insert'>,
  values: typeof usageRecords.$inferInsert,
): Promise<boolean> {
  const [row] = await tx
    .insert(usageRecords)
    .values(values)
    .onConflictDoNothing({ target: [usageRecords.resourceUri, usageRecords.startedAt] })
    .returning({ id: usageRecords.id });
  return !!row;
}

/** Credits used from `from` until `until` by each organization and project of `orgs`. */
export function spendingRows(db: Db, orgs: string[], from: Date, until: Date) {
  return db
    .select({
      org: usageRecords.orgName,
      project: usageRecords.projectName,
      credits: sql<string>`sum(${usageRecords.credits})`,
    })
    .from(usageRecords)
    .where(
      and(
        inArray(usageRecords.orgName, orgs),
        gte(usageRecords.startedAt, from),
        lt(usageRecords.startedAt, until),
      ),
    )
    .groupBy(usageRecords.orgName, usageRecords.projectName);
}
