// The usage query (`GET /apis/billing/v1/usage`) over 1,000,000 usage records: a month of one
// organization grouped by project and day, as the billing page asks it, over HTTP with the
// system administrator's token. The records are made in one SQL statement (generate_series):
// ten organizations, two clusters, five projects, the four categories, spread evenly over 2026,
// so one organization's month is about 1/120 of the table, as on a shared installation with a
// year of history. Next to it, the bare baseline: a plain `SELECT count(*)` of the same rows,
// straight on the database (no HTTP, no grouping). A whole year of the organization (1/10 of
// the table) is measured too, for scale. PGlite admits one process, so there the server is
// stopped while the bench fills its `pgdata` (as the jobs-list section does).
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { ROOT } from '../lib.mjs';
import { median, ms, notMeasured, pct, row } from './report.mjs';
import { onPostgres, startServer } from './server.mjs';

const require = createRequire(join(ROOT, 'packages/server/package.json'));
const total = Number(process.env.BENCH_USAGE_RECORDS ?? 1_000_000);
const requests = Number(process.env.BENCH_BILLING_REQUESTS ?? 200);
const AIM = 'p50 ≤ 50 ms';
const ORGS = 10;
const MONTH = { start: '2026-06-01T00:00:00', end: '2026-07-01T00:00:00' };
const YEAR = { start: '2026-01-01T00:00:00', end: '2027-01-01T00:00:00' };
const usageUrl = (p) =>
  `/apis/billing/v1/usage?org_name=bench&start_date=${p.start}&end_date=${p.end}` +
  '&group_by=project&group_by=day';

/** `n` records over 2026, every tenth of organization `bench`; `query` is pg's or PGlite's. */
async function fill(query, n) {
  await query(
    `INSERT INTO usage_records
       (category, cluster_name, org_name, project_name, resource_uri, started_at, ended_at, credits)
     SELECT (ARRAY['jobs', 'apps', 'storage', 'disks'])[1 + g % 4],
            CASE WHEN g % 7 = 0 THEN 'gpu' ELSE 'default' END,
            CASE WHEN g % ${ORGS} = 0 THEN 'bench' ELSE 'org-' || g % ${ORGS} END,
            'project-' || (g / ${ORGS}) % 5,
            'job://default/bench/project/job-' || g % 20000,
            t, t + interval '1 minute',
            ((g % 1000) / 10000.0)::numeric(20, 4)
     FROM generate_series(1, $1::int) g,
          LATERAL (SELECT timestamptz '2026-01-01 00:00:00+00'
                          + g * (interval '365 days' / $1::int) AS t) s`,
    [n],
  );
  // What autovacuum does on a live server: statistics, and the visibility map that lets the
  // covering index answer alone.
  await query('VACUUM ANALYZE usage_records');
}

/** The baseline: timings of a bare count of the month's rows, straight on the database. */
async function countBaseline(query) {
  const sql = `SELECT count(*)::int AS n FROM usage_records
               WHERE org_name = 'bench' AND started_at >= $1 AND started_at < $2`;
  const args = [`${MONTH.start}Z`, `${MONTH.end}Z`];
  for (let i = 0; i < 10; i++) await query(sql, args);
  const times = [];
  let rows = 0;
  for (let i = 0; i < requests; i++) {
    const t0 = performance.now();
    rows = (await query(sql, args)).rows[0].n;
    times.push(performance.now() - t0);
  }
  return { times, rows };
}

async function measure(api, db, fillMs, baseline) {
  const times = { month: [], year: [] };
  let items = 0;
  for (const [name, period] of [
    ['month', MONTH],
    ['year', YEAR],
  ]) {
    for (let i = 0; i < 10; i++) await api.get(usageUrl(period)); // warm-up: plans, caches
    for (let i = 0; i < requests; i++) {
      const t0 = performance.now();
      const u = await api.get(usageUrl(period));
      times[name].push(performance.now() - t0);
      if (u.clusters.length !== 2 || Number(u.total) <= 0)
        throw new Error(`usage answered ${JSON.stringify(u).slice(0, 200)}`);
      if (name === 'month') items = u.clusters.reduce((s, c) => s + c.usage.length, 0);
    }
  }
  const n = total.toLocaleString('en');
  row(
    `usage query, group_by=project,day, a month of one org (${baseline.rows.toLocaleString('en')} of ${n} records), ${db}`,
    `p50 ${ms(median(times.month))}, p99 ${ms(pct(times.month, 99))} (${requests} requests, ${items} groups; records made by SQL in ${ms(fillMs)})`,
    AIM,
  );
  row(
    `  baseline: SELECT count(*) of the same rows on the database, ${db}`,
    `p50 ${ms(median(baseline.times))}, p99 ${ms(pct(baseline.times, 99))}`,
  );
  row(
    `usage query, group_by=project,day, a year of one org (1/${ORGS} of ${n} records), ${db}`,
    `p50 ${ms(median(times.year))}, p99 ${ms(pct(times.year, 99))}`,
  );
}

export async function benchBillingPostgres(work) {
  const what = `usage query over ${total.toLocaleString('en')} records, PostgreSQL`;
  await onPostgres(what, AIM, async (pg, db, held) => {
    held.server = await startServer(join(work, 'data-billing-pg'), { DATABASE_URL: pg.url });
    await db.connect();
    const query = (sql, params) => db.query(sql, params);
    const t0 = performance.now();
    await fill(query, total);
    const fillMs = performance.now() - t0;
    await measure(held.server.api, 'PostgreSQL', fillMs, await countBaseline(query));
  });
}

export async function benchBillingPglite(work) {
  const what = `usage query over ${total.toLocaleString('en')} records, PGlite`;
  const dataDir = join(work, 'data-billing-pglite');
  let server;
  try {
    // Started once so its migrations make the tables and indexes, then stopped to fill them.
    await (await startServer(dataDir)).stop();
    const { PGlite } = await import(require.resolve('@electric-sql/pglite'));
    const db = new PGlite(join(dataDir, 'pgdata'));
    await db.waitReady;
    let fillMs;
    let baseline;
    try {
      const query = (sql, params) => db.query(sql, params);
      const t0 = performance.now();
      await fill(query, total);
      fillMs = performance.now() - t0;
      baseline = await countBaseline(query);
    } finally {
      await db.close();
    }
    server = await startServer(dataDir);
    await measure(server.api, 'PGlite (default)', fillMs, baseline);
  } catch (e) {
    notMeasured(what, e.message, AIM);
  } finally {
    await server?.stop();
  }
}
