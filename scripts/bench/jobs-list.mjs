// The jobs list page with 100,000 jobs in the project: the console's first page
// (`GET /api/v1/jobs?…&reverse=1&limit=50`) must not slow down as history grows.
// 100,000 jobs through the API would take hours of process starts, so one real job is made
// through the API and cloned in the database (row and status history, one SQL statement each;
// only ids and times differ). On PostgreSQL (scripts/postgres.mjs) that happens next to the
// running server; PGlite admits one process, so there the server is stopped, the bench opens
// its `pgdata` to clone, and the server is started again.
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { ROOT } from '../lib.mjs';
import { mb, median, ms, notMeasured, pct, row } from './report.mjs';
import { rssOf, onPostgres, startServer } from './server.mjs';
import { jobBody, statusOf, until } from './jobs.mjs';

const require = createRequire(join(ROOT, 'packages/server/package.json'));
const total = Number(process.env.BENCH_LIST_JOBS ?? 100_000);
const requests = Number(process.env.BENCH_LIST_REQUESTS ?? 200);
const AIM = 'p50 ≤ 20 ms';
const PAGE =
  '/api/v1/jobs?cluster_name=default&org_name=bench&project_name=bench&reverse=1&limit=50';

/**
 * Clones job `id` into `n` more jobs of its project, older by 1 s each. `query(sql, params)`
 * is pg's or PGlite's (both answer `{ rows }`). Returns the project's job count.
 */
async function cloneJob(query, id, n) {
  // Every column is copied by name from the catalog, so a column added to the schema later
  // needs no change here; only the id and the times move.
  const { rows: cols } = await query(
    `SELECT column_name FROM information_schema.columns
     WHERE table_schema = current_schema() AND table_name = 'jobs' ORDER BY ordinal_position`,
  );
  const moved = {
    id: `'job-' || gen_random_uuid()`,
    created_at: `j.created_at - g * interval '1 second'`,
    started_at: `j.started_at - g * interval '1 second'`,
    finished_at: `j.finished_at - g * interval '1 second'`,
  };
  const names = cols.map((c) => c.column_name);
  await query(
    `INSERT INTO jobs (${names.map((c) => `"${c}"`).join(', ')})
     SELECT ${names.map((c) => moved[c] ?? `j."${c}"`).join(', ')}
     FROM jobs j, generate_series(1, $2::int) g WHERE j.id = $1`,
    [id, n],
  );
  await query(
    `INSERT INTO job_statuses (job_id, seq, status, reason, description, exit_code, transition_time)
     SELECT c.id, s.seq, s.status, s.reason, s.description, s.exit_code,
            c.created_at + (s.transition_time - t.created_at)
     FROM jobs t JOIN job_statuses s ON s.job_id = t.id
     JOIN jobs c ON c.project_name = t.project_name AND c.org_name = t.org_name AND c.id <> t.id
     WHERE t.id = $1`,
    [id],
  );
  await query('ANALYZE jobs');
  await query('ANALYZE job_statuses');
  const { rows } = await query(`SELECT count(*)::int AS n FROM jobs WHERE project_name = 'bench'`);
  return rows[0].n;
}

/** A job that exits at once, made through the API and waited out: the template of the clones. */
async function templateJob(api) {
  const job = await api.post('/api/v1/jobs?from_preset', jobBody('true'));
  await until(api, job.id, (j) => statusOf(j) === 'succeeded', { everyMs: 50 });
  return job.id;
}

/** p50/p99 of the first page over `requests` requests, after a warm-up. */
async function measurePage(server, db, newest, cloned, cloneMs) {
  const { api } = server;
  for (let i = 0; i < 10; i++) await api.get(PAGE); // warm-up: plans, pools, JIT
  const times = [];
  for (let i = 0; i < requests; i++) {
    const t0 = performance.now();
    const { jobs } = await api.get(PAGE);
    times.push(performance.now() - t0);
    if (jobs.length !== 50 || jobs[0].id !== newest)
      throw new Error(`page has ${jobs.length} jobs, first ${jobs[0]?.id}`);
  }
  row(
    `jobs list page (limit=50, reverse), ${cloned.toLocaleString('en')} jobs, ${db}`,
    `p50 ${ms(median(times))}, p99 ${ms(pct(times, 99))} (${requests} requests; clones made by SQL in ${ms(cloneMs)})`,
    AIM,
  );
  row(`server RSS with ${cloned.toLocaleString('en')} jobs (${db})`, mb(rssOf(server.pid)));
}

export async function benchJobsListPostgres(work) {
  const what = `jobs list page with ${total.toLocaleString('en')} jobs, PostgreSQL`;
  await onPostgres(what, AIM, async (pg, db, held) => {
    held.server = await startServer(join(work, 'data-pg'), {
      DATABASE_URL: pg.url,
      ORRERY_RUNTIME: 'process',
    });
    row('server RSS at rest (PostgreSQL)', mb(rssOf(held.server.pid)));
    const id = await templateJob(held.server.api);
    await db.connect();
    const t0 = performance.now();
    const n = await cloneJob((sql, params) => db.query(sql, params), id, total - 1);
    await measurePage(held.server, 'PostgreSQL', id, n, performance.now() - t0);
  });
}

export async function benchJobsListPglite(work) {
  const what = `jobs list page with ${total.toLocaleString('en')} jobs, PGlite`;
  const dataDir = join(work, 'data-pglite');
  let server;
  try {
    server = await startServer(dataDir, { ORRERY_RUNTIME: 'process' });
    const id = await templateJob(server.api);
    await server.stop();
    const { PGlite } = await import(require.resolve('@electric-sql/pglite'));
    const t0 = performance.now();
    const db = new PGlite(join(dataDir, 'pgdata'));
    await db.waitReady;
    let n;
    try {
      n = await cloneJob((sql, params) => db.query(sql, params), id, total - 1);
    } finally {
      await db.close();
    }
    const cloneMs = performance.now() - t0;
    server = await startServer(dataDir, { ORRERY_RUNTIME: 'process' });
    await measurePage(server, 'PGlite (default)', id, n, cloneMs);
  } catch (e) {
    notMeasured(what, e.message, AIM);
  } finally {
    await server?.stop();
  }
}
