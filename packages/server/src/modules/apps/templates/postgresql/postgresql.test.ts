import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { beforeAll, describe, expect, it } from 'vitest';
import type { TestServer, TestUser } from '../../../../test/harness.js';
import { call, processServer } from '../../../../test/fixtures.js';
import { installApp, outsiderOf, uninstallApp } from '../../../../test/app-instance.js';
import { relayAddress } from '../../../../runtime/process/relay.js';
import { passwordKey, postgresqlRunner } from './runner.js';

/** The postgresql template on the process runtime: Debian's server in a job, queried over SQL. */
describe('postgresql template', () => {
  let s: TestServer;
  let owner: TestUser;
  let outsider: TestUser;

  processServer((x) => ({ s, owner } = x));
  beforeAll(async () => (outsider = await outsiderOf(s)));

  it('installs PostgreSQL with the generated user, whose password is a project secret', async () => {
    const input = { postgres_config: { db_users: [{ name: 'analyst', db_names: ['sales'] }] } };
    const app = await installApp(s, owner, 'postgresql', 'db1', input);
    const [job] = app.jobIds;
    const key = passwordKey({ name: 'db1' }, 'analyst');
    expect(app.outputs).toMatchObject({
      postgres_users: {
        users: [
          {
            user: 'analyst',
            password: { key, __type__: 'ApoloSecret' },
            // Jobs of the project reach it through the server's relay (relay.ts).
            host: relayAddress(),
            port: expect.any(Number),
            dbname: 'sales',
          },
        ],
      },
    });
    // What a user of the outputs does: reads the password from the project secret they name.
    const secret = await call(
      s,
      'GET',
      `/api/v1/secrets/${key}?org_name=acme&project_name=vision`,
      owner,
    );
    expect(secret.status).toBe(200);
    const password = Buffer.from(secret.body.value, 'base64').toString();
    expect(
      (await call(s, 'GET', `/api/v1/secrets/${key}?org_name=acme&project_name=vision`, outsider))
        .status,
    ).toBe(404);

    // PostgreSQL speaks no HTTP, but its port is behind the ingress's check all the same: a
    // user of another organization is told no more than that there is no such job.
    expect((await fetch(app.url!)).status).toBe(401);
    expect((await fetch(app.url!, { headers: outsider.headers })).status).toBe(404);

    // The forward the server's ingress uses: 127.0.0.1 on the host (job.json of the process runtime).
    const record = JSON.parse(
      readFileSync(join(s.config.dataDir, 'jobs', job, 'job.json'), 'utf8'),
    );
    const connect = (pw: string) =>
      new pg.Client({
        host: '127.0.0.1',
        port: record.port,
        user: 'analyst',
        database: 'sales',
        password: pw,
      });
    // Healthy means PostgreSQL accepts connections: the first one is not retried.
    const client = connect(password);
    await client.connect();
    await client.query('CREATE TABLE orders (amount int)');
    await client.query('INSERT INTO orders VALUES (40), (2)');
    const r = await client.query(
      'SELECT sum(amount)::int AS answer, current_user AS who, current_database() AS db FROM orders',
    );
    expect(r.rows[0]).toEqual({ answer: 42, who: 'analyst', db: 'sales' });
    await client.end();
    await expect(connect('wrong').connect()).rejects.toThrow(/password authentication failed/);

    await uninstallApp(s, owner, app);
    await expect(connect(password).connect()).rejects.toThrow();
  });

  it('refuses user names it would have to quote', () => {
    const ctx = { runtime: 'process', name: 'x', preset: { name: 'cpu-small' } } as never;
    const bad = { postgres_config: { db_users: [{ name: "x'; DROP", db_names: [] }] } };
    expect(() => postgresqlRunner.plan(bad, ctx)).toThrow('Invalid PostgreSQL user');
  });
});
