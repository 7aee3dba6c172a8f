import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import type { TestServer, TestUser } from '../../../../test/harness.js';
import { call, JOB_SCOPE, processServer } from '../../../../test/fixtures.js';
import { install, stateIs, until, V1 } from '../../../../test/apps.js';
import { eventually } from '../../../../test/app-plan.js';

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

  it('keeps databases, tables and rows across uninstall and reinstall under the same name', async () => {
    // A password known beforehand: the service keeps a project secret that exists.
    const secret = await call(s, 'POST', '/api/v1/secrets', owner, {
      key: 'app-ledger-postgres-analyst-password',
      value: Buffer.from(PASSWORD).toString('base64'),
      ...JOB_SCOPE,
    });
    expect(secret.status).toBe(201);
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
