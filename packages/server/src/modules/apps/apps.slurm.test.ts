// Apps on the slurm runtime: instances of built-in templates run as Slurm batch jobs on the test
// cluster (scripts/slurm.mjs), each behind its own network on its node, opened through the
// server's ingress.
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestServer, type TestServer, type TestUser } from '../../test/harness.js';
import { call, JOB_SCOPE, tenancy } from '../../test/fixtures.js';
import {
  describeSlurm,
  slurmCommand,
  slurmDatabase,
  slurmServerEnv,
} from '../../test/slurm-cluster.js';
import { deployInput, TINY_SERVER, V1 } from '../../test/apps.js';
import {
  eventually,
  installApp,
  openSession,
  uninstallApp,
  urlOf,
} from '../../test/app-instance.js';

/** Slurm's states of a job that still holds its node (a cancelled one stays listed a while). */
const ALIVE = ['PENDING', 'RUNNING', 'SUSPENDED', 'COMPLETING'];

describeSlurm('apps on the slurm runtime', (c) => {
  let s: TestServer;
  let owner: TestUser;
  let shared: string;
  let database: Awaited<ReturnType<typeof slurmDatabase>> | undefined;

  beforeAll(async () => {
    const server = slurmServerEnv(c, 'apps', { ORRERY_KILL_GRACE_SECONDS: '2' });
    shared = server.shared;
    // App homes are storage folders: the data directory must be on the directory the nodes see.
    // Then the database is PostgreSQL: the embedded one is refused on the share.
    const data = join(shared, 'data');
    mkdirSync(data);
    database = await slurmDatabase(c);
    s = await startTestServer(
      { ...server.env, ORRERY_DATA_DIR: data, DATABASE_URL: database.url },
      // Errors logged: one run saw an install of two at once answer 500, and nothing said why.
      { persistent: true, listen: true, logger: { level: 'error' } },
    );
    ({ owner } = await tenancy(s));
  }, 300_000);
  afterAll(async () => {
    await s?.stop();
    await database?.drop();
    rmSync(shared, { recursive: true, force: true });
  });

  it('offers the templates that run on the nodes, and says why the others are not', async () => {
    const r = await call(s, 'GET', `${V1}/templates`, owner);
    expect(r.status).toBe(200);
    const reason = (name: string) =>
      r.body.find((t: { name: string }) => t.name === name).unavailable_reason as string | null;
    for (const t of ['orrery-deploy', 'job', 'postgresql', 'jupyter']) {
      expect(reason(t), t).toBeNull();
    }
    expect(reason('dify')).toBe(
      'Dify needs the docker runtime; this installation runs jobs on slurm',
    );
    expect(reason('shell')).toMatch(/runtime; this installation runs jobs on slurm$/);
  });

  it('serves two instances listening on the same port on one node, each through the ingress', async () => {
    const apps = await Promise.all(
      ['one', 'two'].map((name) =>
        installApp(s, owner, 'orrery-deploy', name, deployInput(TINY_SERVER)),
      ),
    );
    for (const app of apps) {
      const session = await openSession(s, app.url!, owner);
      const page = await eventually(async () => {
        const res = await fetch(app.url!, { headers: session });
        if (!res.ok) throw new Error(`HTTP ${res.status}`);
        return res.text();
      });
      // The home folder is mounted on the node from the shared directory.
      expect(page).toBe('hi true');
      const job = await call(s, 'GET', `/api/v1/jobs/${app.jobIds[0]}`, owner);
      expect(job.body.runtime).toBe('slurm');
      expect(existsSync(join(shared, 'jobs', app.jobIds[0], 'port'))).toBe(true);
    }
    const ports = apps.map((a) =>
      readFileSync(join(shared, 'jobs', a.jobIds[0], 'port'), 'utf8').trim(),
    );
    expect(new Set(ports).size).toBe(2);
    for (const app of apps) await uninstallApp(s, owner, app);
    // Uninstalled means stopped on the cluster too, not only cancelled in Orrery.
    const ids = apps.flatMap((a) => a.jobIds.map((j) => `orrery-${j}`));
    await expect
      .poll(
        async () => {
          const q = JSON.parse(await slurmCommand(c, 'squeue', ['--json'])) as {
            jobs: Array<{ name: string; job_state: string }>;
          };
          return q.jobs.filter((j) => ids.includes(j.name) && ALIVE.includes(j.job_state));
        },
        { timeout: 20_000, interval: 500 },
      )
      .toEqual([]);
  }, 180_000);

  it('runs PostgreSQL on a node: healthy once it answers, reached on its forward', async () => {
    // The service keeps a password secret that exists: the test knows this one.
    const password = 'a-password-the-test-knows';
    const secret = await call(s, 'POST', '/api/v1/secrets', owner, {
      key: 'app-db-postgres-analyst-password',
      value: Buffer.from(password).toString('base64'),
      ...JOB_SCOPE,
    });
    expect(secret.status).toBe(201);
    const app = await installApp(s, owner, 'postgresql', 'db', {
      postgres_config: { db_users: [{ name: 'analyst', db_names: ['sales'] }] },
    });
    const port = Number(readFileSync(join(shared, 'jobs', app.jobIds[0], 'port'), 'utf8'));
    const client = new pg.Client({
      host: '127.0.0.1',
      port,
      user: 'analyst',
      password,
      database: 'sales',
    });
    await client.connect();
    try {
      expect((await client.query('select current_database() as db')).rows[0].db).toBe('sales');
    } finally {
      await client.end();
    }
    await uninstallApp(s, owner, app);
  }, 180_000);

  it.skipIf(!existsSync('/usr/bin/jupyter-notebook'))(
    'runs Jupyter on a node: its API answers through the ingress',
    async () => {
      const app = await installApp(s, owner, 'jupyter', 'nb');
      expect(urlOf(app.outputs.app_url.external_url)).toBe(`${app.url!.replace(/\/$/, '')}/tree`);
      const session = await openSession(s, app.url!, owner);
      const status = await fetch(`${app.url!.replace(/\/$/, '')}/api/status`, {
        headers: session,
      });
      expect(status.status).toBe(200);
      expect(await status.json()).toHaveProperty('started');
      await uninstallApp(s, owner, app);
    },
    180_000,
  );
});
