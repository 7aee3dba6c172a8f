// The built-in templates on the process runtime, median of BENCH_APP_RUNS (5) each:
// - install → healthy through the apps service, as a user gets it: `POST …/instances` to the
//   state `healthy` (the watcher's HTTP check passed), polled every 5 ms, on a server of its own;
// - the bare baseline under it: from the driver's start() of the job a runner planned until the
//   app answers its health check through the job's forward (shell, jupyter) or accepts a SQL
//   connection (postgresql).
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { until } from './apps-list.mjs';
import { median, ms, row } from './report.mjs';
import { startServer } from './server.mjs';

const runs = Number(process.env.BENCH_APP_RUNS ?? 5);
const dist = '../../packages/server/dist';

const ctxOf = (template, runtime = 'process') => ({
  instanceId: 'bench',
  name: 'bench',
  cluster: 'default',
  org: 'acme',
  project: 'vision',
  creator: 'bench',
  runtime,
  preset: { name: 'cpu-small', cpu: 1, memoryBytes: 2 ** 30 },
  home: `storage:.apps/${template}/bench`,
  publicUrl: 'http://127.0.0.1:8080',
});

/** The driver's spec of a planned job: its home a fresh directory, its secrets the plan's. */
function specOf(id, body, plan, home) {
  const secrets = Object.fromEntries(
    Object.entries(body.secret_env).map(([k, uri]) => [
      k,
      plan.secrets[uri.slice('secret:'.length)],
    ]),
  );
  return {
    id,
    image: body.image,
    command: body.command,
    workingDir: body.working_dir,
    env: { ...body.env, ...secrets },
    mounts: body.volumes.map((v) => ({
      hostPath: home,
      dstPath: v.dst_path,
      readOnly: v.read_only,
    })),
    limits: { cpu: 1, memory: 2 ** 30, shm: false },
    httpPort: body.http?.port,
    tty: false,
    privileged: false,
  };
}

async function ready(driver, id, check) {
  for (;;) {
    const e = await driver.endpoint(id);
    if (e && (await check(e).catch(() => false))) return;
    await sleep(10);
  }
}

const httpCheck =
  (path, prefix = '') =>
  async (e) =>
    (await fetch(`http://${e.host}:${e.port}${prefix}${path}`)).status < 500;

const V1 = '/apis/apps/v1/cluster/default/org/bench/project/bench';

/**
 * Install → healthy through the apps API, one at a time, each uninstalled before the next; with
 * `usable` also install → the app usable (`usable(app)` resolves), when healthy does not mean it.
 */
async function installToHealthy(api, template, usable) {
  const healthy = [];
  const used = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    const app = await api.post(`${V1}/instances`, {
      template_name: template,
      display_name: `bench ${i}`,
      input: { preset: { name: 'cpu-small' } },
    });
    const ready = await until(api, app.id, 'healthy');
    healthy.push(performance.now() - t0);
    if (usable) {
      await retry(() => usable(ready));
      used.push(performance.now() - t0);
    }
    await api.del(`${V1}/instances/${app.id}?force=true`);
  }
  return { healthy, used };
}

async function retry(fn) {
  for (;;) {
    if (await fn().catch(() => false)) return;
    await sleep(10);
  }
}

/**
 * A SQL connection to a postgresql instance as its user would make it: the password read from the
 * project secret its outputs name, the server at the job's forward on this host (job.json).
 */
const sqlOf = (server) => async (app) => {
  const out = await server.api.get(`${V1}/instances/${app.id}/output`);
  const user = out.postgres_users.users[0];
  const secret = await server.api.get(
    `/api/v1/secrets/${user.password.key}?org_name=bench&project_name=bench`,
  );
  const job = JSON.parse(
    readFileSync(join(server.dataDir, 'jobs', app.job_ids[0], 'job.json'), 'utf8'),
  );
  return sqlCheck(
    user.user,
    Buffer.from(secret.value, 'base64').toString(),
  )({
    host: '127.0.0.1',
    port: job.port,
  });
};

const sqlCheck = (user, password) => async (e) => {
  const c = new pg.Client({ host: e.host, port: e.port, user, database: user, password });
  await c.connect();
  await c.end();
  return true;
};

/** The bare baseline: driver start → the app answering, without the apps service. */
async function driverToAnswering(driver, dataDir, runner, check) {
  const times = [];
  for (let i = 0; i < runs; i++) {
    const id = `bench-${runner.template}-${i}`;
    const plan = await runner.plan({}, ctxOf(runner.template));
    const home = join(dataDir, 'homes', id);
    mkdirSync(home, { recursive: true });
    const t0 = performance.now();
    await driver.start(specOf(id, plan.jobs[0].body, plan, home));
    await ready(driver, id, check(plan));
    times.push(performance.now() - t0);
    await driver.remove(id);
  }
  return times;
}

const stats = (times) =>
  `median ${ms(median(times))}, max ${ms(Math.max(...times))} (${times.length} runs)`;

export async function benchAppTemplates() {
  const { ProcessDriver } = await import(`${dist}/runtime/process/driver.js`);
  const { shellRunner } = await import(`${dist}/modules/apps/templates/shell/runner.js`);
  const { jupyterRunner } = await import(`${dist}/modules/apps/templates/jupyter/runner.js`);
  const { postgresqlRunner } = await import(`${dist}/modules/apps/templates/postgresql/runner.js`);
  const dataDir = mkdtempSync('/var/tmp/orrery-bench-apps-');
  // Sandboxed jobs run as uids of their own that must pass through to the server's data directory.
  chmodSync(dataDir, 0o711);
  const driver = new ProcessDriver({ dataDir, killGraceMs: 1000 });
  let server;
  const cases = [
    [shellRunner, () => httpCheck('/')],
    [jupyterRunner, () => httpCheck('/api/status')],
    [postgresqlRunner, (plan) => sqlCheck('app', Object.values(plan.secrets)[0]), sqlOf],
  ];
  try {
    server = await startServer(join(dataDir, 'server'), { ORRERY_RUNTIME: 'process' });
    for (const [runner, check, usableOf] of cases) {
      const why = runner.unavailable?.();
      if (why) {
        row(`${runner.template}: install → healthy`, 'not measured', why);
        continue;
      }
      const { healthy, used } = await installToHealthy(
        server.api,
        runner.template,
        usableOf?.(server),
      );
      row(`${runner.template}: install → healthy (apps API)`, stats(healthy), 'median ≤ 5 s');
      // PostgreSQL has no HTTP check: healthy is its job running, before it accepts SQL.
      if (used.length) row(`${runner.template}: install → accepting SQL (apps API)`, stats(used));
      row(
        `${runner.template}: driver start → app answering (bare)`,
        stats(await driverToAnswering(driver, dataDir, runner, check)),
        'baseline',
      );
    }
  } finally {
    await server?.stop();
    await driver.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
