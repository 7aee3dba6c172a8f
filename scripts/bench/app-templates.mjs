// The built-in templates' own start-up on the process runtime (issue 11): from the driver's
// start() of the job a runner planned until the app answers its health check through the job's
// forward (shell, jupyter) or accepts a SQL connection (postgresql). The apps service's part
// (install request, states) comes on top. Median of BENCH_APP_RUNS (5) each.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { median, ms, row } from './report.mjs';

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

export async function benchAppTemplates() {
  const { ProcessDriver } = await import(`${dist}/runtime/process.js`);
  const { shellRunner } = await import(`${dist}/modules/apps/templates/shell/runner.js`);
  const { jupyterRunner } = await import(`${dist}/modules/apps/templates/jupyter/runner.js`);
  const { postgresqlRunner } = await import(`${dist}/modules/apps/templates/postgresql/runner.js`);
  const dataDir = mkdtempSync('/var/tmp/orrery-bench-apps-');
  const driver = new ProcessDriver({ dataDir, killGraceMs: 1000 });
  const cases = [
    [shellRunner, () => httpCheck('/')],
    [jupyterRunner, () => httpCheck('/api/status')],
    [
      postgresqlRunner,
      (plan) => async (e) => {
        const password = Object.values(plan.secrets)[0];
        const c = new pg.Client({
          host: e.host,
          port: e.port,
          user: 'app',
          database: 'app',
          password,
        });
        await c.connect();
        await c.end();
        return true;
      },
    ],
  ];
  try {
    for (const [runner, checkOf] of cases) {
      const why = runner.unavailable?.();
      if (why) {
        row(`${runner.template}: start → ready`, 'not measured', why);
        continue;
      }
      const times = [];
      for (let i = 0; i < runs; i++) {
        const id = `bench-${runner.template}-${i}`;
        const plan = await runner.plan({}, ctxOf(runner.template));
        const home = join(dataDir, 'homes', id);
        mkdirSync(home, { recursive: true });
        const t0 = performance.now();
        await driver.start(specOf(id, plan.jobs[0].body, plan, home));
        await ready(driver, id, checkOf(plan));
        times.push(performance.now() - t0);
        await driver.remove(id);
      }
      row(
        `${runner.template}: driver start → app answering (${times.length} runs)`,
        `median ${ms(median(times))}, max ${ms(Math.max(...times))}`,
        'aim ≤ 5 s with the install',
      );
    }
  } finally {
    await driver.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
