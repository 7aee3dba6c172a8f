// Apps on the process runtime: install → healthy of orrery-deploy (a one-line Node
// HTTP server, so the figure is Orrery's own cost: admission, start, the HTTP check), and the
// catalogue and the installed list with 1,000 instances in the project. 1,000 instances through
// the API would need 1,000 running jobs, so one real instance is made through the API and its
// rows cloned in the database (instance and revision, one SQL statement each), on PostgreSQL
// next to the running server.
import { join } from 'node:path';
import { median, ms, pct, row } from './report.mjs';
import { sleep, onPostgres, startServer } from './server.mjs';

const installs = Number(process.env.BENCH_APP_INSTALLS ?? 10);
const total = Number(process.env.BENCH_APP_INSTANCES ?? 1000);
const requests = Number(process.env.BENCH_LIST_REQUESTS ?? 200);
const V1 = '/apis/apps/v1/cluster/default/org/bench/project/bench';
const SERVER = `${process.execPath} -e "require('http').createServer((q,r)=>r.end('ok')).listen(process.env.PORT)"`;

const deploy = {
  template_name: 'orrery-deploy',
  input: {
    preset: { name: 'cpu-small' },
    image: 'busybox',
    command: SERVER,
    http: { port: 8080, health_path: '/', auth: 'apolo_auth' },
  },
};

/** Polls the instance every 5 ms (so polling adds little) until `state`. */
export async function until(api, id, state, timeoutMs = 60000) {
  for (const t0 = Date.now(); Date.now() - t0 < timeoutMs; await sleep(5)) {
    const app = await api.get(`/apis/apps/v2/instances/${id}`);
    if (app.state === state) return app;
    if (app.state === 'errored') throw new Error(`instance ${id} errored`);
  }
  throw new Error(`instance ${id} not ${state} after ${timeoutMs} ms`);
}

/** Install → healthy, one at a time, each uninstalled before the next (the capacity stays free). */
async function installToHealthy(api) {
  const times = [];
  let kept;
  for (let i = 0; i < installs; i++) {
    const t0 = performance.now();
    const app = await api.post(`${V1}/instances`, deploy);
    await until(api, app.id, 'healthy');
    times.push(performance.now() - t0);
    if (i === installs - 1) kept = app.id;
    else await api.del(`${V1}/instances/${app.id}?force=true`);
  }
  row(
    'app install → healthy (orrery-deploy, process runtime)',
    `median ${ms(median(times))}, max ${ms(Math.max(...times))} (${installs} installs)`,
    'median ≤ 5 s',
  );
  return kept;
}

/** Clones instance `id` (and its revision) `n` times under new names; the project's count. */
async function cloneInstance(db, id, n) {
  await db.query(
    `WITH clones AS (
       INSERT INTO app_instances (id, cluster_name, org_name, project_name, name, display_name,
         template_name, template_version, state, creator_id, creator, revision, preset_name,
         created_at, updated_at)
       SELECT gen_random_uuid(), cluster_name, org_name, project_name, name || '-' || g,
         display_name || ' ' || g, template_name, template_version, 'errored', creator_id,
         creator, revision, preset_name, created_at - g * interval '1 second', updated_at
       FROM app_instances i, generate_series(1, $2::int) g WHERE i.id = $1
       RETURNING id)
     INSERT INTO app_revisions (instance_id, number, template_version, input, resolved, health,
       creator, comment, created_at)
     SELECT c.id, r.number, r.template_version, r.input, r.resolved, r.health, r.creator,
       r.comment, r.created_at
     FROM app_revisions r, clones c WHERE r.instance_id = $1`,
    [id, n],
  );
  await db.query('ANALYZE app_instances');
  await db.query('ANALYZE app_revisions');
  const { rows } = await db.query(
    `SELECT count(*)::int AS n FROM app_instances WHERE project_name = 'bench'`,
  );
  return rows[0].n;
}

async function p50(api, path, what, aim) {
  for (let i = 0; i < 10; i++) await api.get(path); // warm-up
  const times = [];
  for (let i = 0; i < requests; i++) {
    const t0 = performance.now();
    await api.get(path);
    times.push(performance.now() - t0);
  }
  row(what, `p50 ${ms(median(times))}, p99 ${ms(pct(times, 99))} (${requests} requests)`, aim);
}

export async function benchApps(work) {
  const what = 'apps on PostgreSQL';
  await onPostgres(what, '', async (pg, db, held) => {
    held.server = await startServer(join(work, 'data-apps'), {
      DATABASE_URL: pg.url,
      ORRERY_RUNTIME: 'process',
    });
    const { api } = held.server;
    const kept = await installToHealthy(api);
    await db.connect();
    const n = await cloneInstance(db, kept, total - 1);
    await p50(api, `${V1}/templates`, `app catalogue (GET templates), ${n} instances`, '');
    await p50(
      api,
      `${V1}/instances?size=100`,
      `installed apps list (size=100), ${n.toLocaleString('en')} instances`,
      '',
    );
  });
}
