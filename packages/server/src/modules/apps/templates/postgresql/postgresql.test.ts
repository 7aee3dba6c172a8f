import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import type { TestServer, TestUser } from '../../../../test/harness.js';
import { call, processServer } from '../../../../test/fixtures.js';
import { eventually, runPlan } from '../../../../test/app-plan.js';
import { passwordKey, postgresqlRunner } from './runner.js';

/** The postgresql template on the process runtime: Debian's server in a job, queried over SQL. */
describe('postgresql template', () => {
  let s: TestServer;
  let owner: TestUser;

  processServer((x) => ({ s, owner } = x));

  it('runs PostgreSQL with the generated user, whose password is a project secret', async () => {
    const input = { postgres_config: { db_users: [{ name: 'analyst', db_names: ['sales'] }] } };
    const { plan, ctx, jobs } = await runPlan(s, owner, postgresqlRunner, input, 'db1');
    const key = passwordKey(ctx, 'analyst');
    expect(Object.keys(plan.secrets!)).toEqual([key]);
    const secrets = await call(
      s,
      'GET',
      '/api/v1/secrets?org_name=acme&project_name=vision',
      owner,
    );
    expect(secrets.body.map((x: { key: string }) => x.key)).toContain(key);

    // The forward the server's ingress uses: 127.0.0.1 on the host (job.json of the process runtime).
    const record = JSON.parse(
      readFileSync(join(s.config.dataDir, 'jobs', jobs.main, 'job.json'), 'utf8'),
    );
    const connect = (password: string) =>
      new pg.Client({
        host: '127.0.0.1',
        port: record.port,
        user: 'analyst',
        database: 'sales',
        password,
      });
    // Running is not listening yet: the forward accepts before PostgreSQL does.
    const client = await eventually(async () => {
      const c = connect(plan.secrets![key]);
      await c.connect().catch(async (e) => {
        await c.end().catch(() => undefined);
        throw e;
      });
      return c;
    });
    const r = await client.query(
      'SELECT 41 + 1 AS answer, current_user AS who, current_database() AS db',
    );
    expect(r.rows[0]).toEqual({ answer: 42, who: 'analyst', db: 'sales' });
    await client.query('CREATE TABLE t (x int)');
    await client.end();
    await expect(connect('wrong').connect()).rejects.toThrow(/password authentication failed/);

    const outputs = postgresqlRunner.outputs(input, {
      ...ctx,
      endpoints: {
        main: {
          internal: { host: `${jobs.main}.acme--vision`, port: 5432, protocol: 'http' },
          external: { host: '127.0.0.1', port: 80, protocol: 'http', basePath: '/' },
        },
      },
    });
    expect(outputs).toMatchObject({
      postgres_users: {
        users: [
          {
            user: 'analyst',
            password: { key },
            host: `${jobs.main}.acme--vision`,
            port: 5432,
            dbname: 'sales',
          },
        ],
      },
    });
    await call(s, 'DELETE', `/api/v1/jobs/${jobs.main}`, owner);
  });

  it('refuses user names it would have to quote', () => {
    const ctx = { runtime: 'process', name: 'x', preset: { name: 'cpu-small' } } as never;
    const bad = { postgres_config: { db_users: [{ name: "x'; DROP", db_names: [] }] } };
    expect(() => postgresqlRunner.plan(bad, ctx)).toThrow('Invalid PostgreSQL user');
  });
});
