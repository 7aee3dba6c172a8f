import { readFileSync, statSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import type { TestServer, TestUser } from '../../../../test/harness.js';
import { call, JOB_SCOPE, jobEnded, processServer, submitJob } from '../../../../test/fixtures.js';
import { install, stateIs, until, V1 } from '../../../../test/apps.js';
import { eventually } from '../../../../test/app-instance.js';

const PASSWORD = 'a-password-the-test-knows';
const input = {
  preset: { name: 'cpu-small' },
  postgres_config: { db_users: [{ name: 'analyst', db_names: ['sales'] }] },
};

/**
 * The postgresql template on the process runtime, installed through the apps API: its cluster
 * lives in the instance's home, owned by whichever job uid runs it.
 */
describe('postgresql on the process runtime', () => {
  let s: TestServer;
  let owner: TestUser;
  processServer((x) => ({ s, owner } = x));

  /** Installs `name` and waits until it is healthy; its main job's id. */
  async function installed(name: string) {
    const r = await install(s, owner, { template_name: 'postgresql', display_name: name, input });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    await until(s, owner, r.body.id, stateIs('healthy'));
    return { id: r.body.id as string, job: r.body.outputParams.jobId as string };
  }

  /** A client on the job's forward (127.0.0.1 on the host), once PostgreSQL answers. */
  function client(job: string) {
    const record = JSON.parse(
      readFileSync(join(s.config.dataDir, 'jobs', job, 'job.json'), 'utf8'),
    ) as { port: number };
    const opts = { host: '127.0.0.1', port: record.port, user: 'analyst', database: 'sales' };
    return eventually(async () => {
      const c = new pg.Client({ ...opts, password: PASSWORD });
      await c.connect().catch(async (e) => {
        await c.end().catch(() => undefined);
        throw e;
      });
      return c;
    });
  }

  /** Creates the password secret the instance `name` will use (the service keeps one that exists). */
  async function knownPassword(name: string) {
    const secret = await call(s, 'POST', '/api/v1/secrets', owner, {
      key: `app-${name}-postgres-analyst-password`,
      value: Buffer.from(PASSWORD).toString('base64'),
      ...JOB_SCOPE,
    });
    expect(secret.status).toBe(201);
  }

  /** Runs `command` as a job of `project` (of acme) to its end: its status and log. */
  async function jobRun(command: string, project = 'vision', extra: Record<string, unknown> = {}) {
    const id = await submitJob(s, owner, command, { project_name: project, ...extra });
    const done = await jobEnded(s, owner, id);
    const log = await s.app.inject({
      method: 'GET',
      url: `/api/v1/jobs/${id}/log`,
      headers: owner.headers,
    });
    return { status: done.status as string, log: log.body, job: done };
  }

  it('is reached by the project’s jobs at the host and port of its outputs, and by no other project', async () => {
    await knownPassword('shared');
    const db = await installed('shared');
    const output = await call(s, 'GET', `${V1}/instances/${db.id}/output`, owner);
    const user = output.body.postgres_users.users[0];
    // Not the internal host name, which nothing resolves on the process runtime: the relay.
    expect(user.host).not.toContain('acme--vision');
    expect(user).toMatchObject({ user: 'analyst', dbname: 'sales', port: expect.any(Number) });
    expect(user.uri).toBe(`postgresql://analyst@${user.host}:${user.port}/sales`);
    const psql = `psql "host=${user.host} port=${user.port} user=analyst dbname=sales connect_timeout=5" -tAc "SELECT 'from a job: ' || (40 + 2)"`;
    // At the first try: the firewall's chain is rewritten in one transaction and its set of
    // relays is never emptied (process/network.ts), so nothing refuses a job of the project.
    const same = await jobRun(psql, 'vision', {
      secret_env: { PGPASSWORD: `secret:app-shared-postgres-analyst-password` },
    });
    expect(same.log).toContain('from a job: 42');
    expect(same.status).toBe('succeeded');

    // A project of the same organization, with the right password: the relay resets it.
    const other = await call(s, 'POST', '/api/v1/projects', owner, {
      name: 'other',
      org_name: 'acme',
      cluster_name: 'default',
    });
    expect(other.status).toBe(201);
    // The relay resets it. slirp4netns shows that reset as "Connection refused" when it meets
    // it before answering the job's SYN, as the firewall's refusal would show: asked again until
    // the reset itself comes, which only the relay, reached, sends (docs/runtimes.md).
    const untilReached = `for i in 1 2 3 4 5 6 7 8 9 10; do out=$(${psql} 2>&1); echo "$out"; case "$out" in *"Connection refused"*) sleep 1 ;; *) exit 1 ;; esac; done; exit 1`;
    const foreign = await jobRun(untilReached, 'other', { env: { PGPASSWORD: PASSWORD } });
    expect(foreign.status).toBe('failed');
    expect(foreign.log).toMatch(/server closed the connection unexpectedly|Connection reset/);
    expect(foreign.log).not.toContain('from a job');
    await call(s, 'DELETE', `${V1}/instances/${db.id}?force=true`, owner);
  });

  it('leaves the host’s other ports closed to jobs', async () => {
    await knownPassword('closed');
    const db = await installed('closed');
    const { host, port } = (await call(s, 'GET', `${V1}/instances/${db.id}/output`, owner)).body
      .postgres_users.users[0];
    // A service of the host on the relay's own address, and the server's own port.
    const service = createServer((c) => c.end('host secret\n'));
    await new Promise<void>((ok) => service.listen(0, host, ok));
    const open = (service.address() as { port: number }).port;
    const serverPort = new URL(s.url).port;
    const probe = (p: number | string) =>
      `timeout 5 bash -c 'exec 3<>/dev/tcp/${host}/${p} && echo "connected ${p}" && timeout 1 cat <&3'`;
    const r = await jobRun([probe(port), probe(open), probe(serverPort)].join('; '));
    service.close();
    // The relay of the project's instance is the one port of the host a job connects to.
    expect(r.log).toContain(`connected ${port}`);
    expect(r.log).not.toContain(`connected ${open}`);
    expect(r.log).not.toContain(`connected ${serverPort}`);
    expect(r.log).not.toContain('host secret');
    await call(s, 'DELETE', `${V1}/instances/${db.id}?force=true`, owner);
  });

  it('keeps databases, tables and rows across uninstall and reinstall under the same name', async () => {
    await knownPassword('ledger');
    const first = await installed('ledger');
    const c1 = await client(first.job);
    await c1.query('CREATE TABLE entries (what text)');
    await c1.query("INSERT INTO entries VALUES ('kept')");
    await c1.end();
    const uid1 = JSON.parse(
      readFileSync(join(s.config.dataDir, 'jobs', first.job, 'job.json'), 'utf8'),
    ).uid;
    expect((await call(s, 'DELETE', `${V1}/instances/${first.id}`, owner)).status).toBe(200);
    await until(s, owner, first.id, stateIs('uninstalled'));

    // A job of the project mounts the home as an ordinary volume, asking to own it: it cannot.
    const home = join(s.config.dataDir, 'storage/default/acme/vision/.apps/postgresql/ledger');
    const user = await jobRun('id -u; cat /data/pgdata/PG_VERSION', 'vision', {
      volumes: [{ src_storage_uri: 'storage:.apps/postgresql/ledger', dst_path: '/data' }],
      owned_volumes: ['/data'],
    });
    // It reads the cluster, shared with the project's jobs as any volume, but does not own it.
    expect(user.log).toMatch(/^\d+\n15\n/);
    expect(user.job.container).not.toHaveProperty('owned_volumes');
    expect(Number(user.log.split('\n')[0])).not.toBe(uid1);
    expect(statSync(join(home, 'pgdata')).uid).toBe(uid1);

    const second = await installed('ledger');
    const uid2 = JSON.parse(
      readFileSync(join(s.config.dataDir, 'jobs', second.job, 'job.json'), 'utf8'),
    ).uid;
    // Another job, another uid: the files passed to it.
    expect(uid2).not.toBe(uid1);
    const c2 = await client(second.job);
    const rows = await c2.query('SELECT what FROM entries');
    expect(rows.rows).toEqual([{ what: 'kept' }]);
    await c2.end();
    await call(s, 'DELETE', `${V1}/instances/${second.id}?force=true`, owner);
  });
});
