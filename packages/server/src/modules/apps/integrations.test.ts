import { stringify } from 'yaml';
import { beforeAll, describe, expect, it } from 'vitest';
import { type TestServer, type TestUser } from '../../test/harness.js';
import { call, tenantServer } from '../../test/fixtures.js';
import {
  NODE,
  V1,
  deployInput,
  install,
  stateIs,
  tempDir,
  until,
  writeTemplate,
} from '../../test/apps.js';

/** A served app that reports no activity ever (idle shutdown) at /activity. */
const IDLE_SERVER = `${NODE} -e "require('http').createServer((q,r)=>r.end(q.url==='/activity'?JSON.stringify({last_activity:null}):'hi')).listen(process.env.PORT)"`;

const ref = (instance_id: string, path: string) => ({
  type: 'app-instance-ref',
  instance_id,
  path,
});

/** An operator template with integration fields and an idle timeout. */
const linker = () =>
  writeTemplate(
    tempDir(),
    stringify({
      name: 'linker',
      title: 'Linker',
      version: '1.0.0',
      pub_date: '2026-11-01',
      short_description: 'Uses another app',
      runtimes: ['process'],
      deploy: {
        image: 'busybox',
        command: IDLE_SERVER,
        http_port: 8080,
        activity_path: '/activity',
      },
    }),
    {
      type: 'object',
      properties: {
        upstream: {
          'x-meta-type': 'integration',
          anyOf: [{ type: 'object' }, { type: 'null' }],
          default: null,
        },
        port: { 'x-meta-type': 'integration', anyOf: [{ type: 'integer' }, { type: 'null' }] },
        idle_timeout_minutes: {
          type: 'number',
          minimum: 0,
          default: 60,
          'x-is-configurable': true,
        },
      },
    },
  );

describe('integrations and idle shutdown', () => {
  let s: TestServer;
  let owner: TestUser;
  let target: string;
  const waiting: { left: number; done: () => void }[] = [];
  /** Resolves after `n` more passes of the watcher that asked the apps for their activity. */
  const idlePasses = (n: number) => new Promise<void>((done) => waiting.push({ left: n, done }));
  const onIdlePass = () => {
    for (const w of waiting.splice(0)) {
      if (--w.left > 0) waiting.push(w);
      else w.done();
    }
  };
  tenantServer(
    (x) => ({ s, owner } = x),
    { ORRERY_RUNTIME: 'process', ORRERY_APP_TEMPLATES_DIR: linker() },
    { apps: { tickMs: 100, idlePollMs: 200, onIdlePass } },
  );
  beforeAll(async () => {
    const r = await install(s, owner, { template_name: 'orrery-deploy', input: deployInput() });
    target = r.body.id;
    await until(s, owner, target, stateIs('healthy'));
  });

  it('resolves a reference into the revision and records the link', async () => {
    const input = {
      upstream: ref(target, '$.app_url.internal_url'),
      port: ref(target, '$.app_url.internal_url.port'),
      idle_timeout_minutes: 0,
    };
    const r = await install(s, owner, { template_name: 'linker', display_name: 'User', input });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    const url = `${V1}/instances/${r.body.id}`;
    const resolved = await call(s, 'GET', `${url}/input`, owner);
    const { internal_url } = (await call(s, 'GET', `${V1}/instances/${target}/output`, owner)).body
      .app_url;
    expect(resolved.body.port).toBe(internal_url.port);
    expect(resolved.body.upstream).toEqual(internal_url);
    expect((await call(s, 'GET', `${url}/input?restore_ref=true`, owner)).body).toEqual(input);
    const used = await call(s, 'GET', `${V1}/instances/${target}`, owner);
    expect(used.body.used_by).toEqual([{ id: r.body.id, display_name: 'User' }]);
  });

  it('refuses an unknown instance, another project’s, and a missing path, on that field', async () => {
    const refused = async (value: unknown) => {
      const r = await install(s, owner, { template_name: 'linker', input: { upstream: value } });
      expect(r.status).toBe(400);
      return r.body.errors;
    };
    const nobody = '00000000-0000-4000-8000-000000000000';
    expect(await refused(ref(nobody, '$.app_url'))).toEqual([
      { path: ['upstream'], message: `No app instance ${nobody} in this project` },
    ]);
    expect(await refused(ref(target, '$.app_url.nothing'))).toEqual([
      {
        path: ['upstream'],
        message: `The app instance ${target} has no output at $.app_url.nothing`,
      },
    ]);
    expect(await refused(ref(target, 'app_url'))).toEqual([
      { path: ['upstream'], message: 'app_url is not a path such as $.a.b or $.a[1].b' },
    ]);
    // The same instance is not visible from another project of the organization.
    await call(s, 'POST', '/api/v1/projects', owner, {
      name: 'other',
      org_name: 'acme',
      cluster_name: 'default',
    });
    const other = '/apis/apps/v1/cluster/default/org/acme/project/other';
    const r = await install(
      s,
      owner,
      { template_name: 'linker', input: { upstream: ref(target, '$.app_url') } },
      other,
    );
    expect(r.status).toBe(400);
    expect(r.body.errors).toEqual([
      { path: ['upstream'], message: `No app instance ${target} in this project` },
    ]);
  });

  it('names the instances that use one when it is uninstalled', async () => {
    const users = (await call(s, 'GET', `${V1}/instances/${target}`, owner)).body.used_by;
    expect(users.length).toBeGreaterThan(0);
    await call(s, 'DELETE', `${V1}/instances/${target}`, owner);
    const events = await call(s, 'GET', `${V1}/instances/${target}/events`, owner);
    const uninstalling = events.body.items.find(
      (e: { state: string }) => e.state === 'uninstalling',
    );
    expect(uninstalling.message).toContain(`used by User (${users[0].id})`);
  });

  it('stops an app without activity after its idle timeout, keeping it configurable', async () => {
    // 0.02 minutes (1.2 s): the machinery of the 60-minute default, polled every 200 ms here.
    const r = await install(s, owner, {
      template_name: 'linker',
      display_name: 'Idle',
      input: { idle_timeout_minutes: 0.02 },
    });
    const id = r.body.id as string;
    const healthy = await until(s, owner, id, stateIs('healthy'));
    expect(healthy.idle).toMatchObject({ timeout_minutes: 0.02 });
    expect(healthy.idle.seconds_left).toBeLessThanOrEqual(2);
    const stopped = await until(s, owner, id, stateIs('degraded'));
    expect(stopped.idle).toBeNull();
    const events = await call(s, 'GET', `${V1}/instances/${id}/events`, owner);
    expect(events.body.items[0]).toMatchObject({
      state: 'degraded',
      reason: 'IdleShutdown',
      message: expect.stringContaining(
        'Stopped after 0.02 minutes without activity; the files in storage:.apps/linker/idle stay',
      ),
    });
    const job = await call(s, 'GET', `/api/v1/jobs/${stopped.job_ids[0]}`, owner);
    expect(job.body.status).toBe('cancelled');
    // Editable while stopped or running: 0 turns it off, and the app runs again.
    const put = await call(s, 'PUT', `${V1}/instances/${id}`, owner, {
      input: { idle_timeout_minutes: 0 },
    });
    expect(put.status).toBe(200);
    const again = await until(s, owner, id, stateIs('healthy'));
    expect(again.idle).toBeNull();
    // Idle checks go on past the 0.02 minutes the old input would have allowed: still running.
    const healthySince = Date.now();
    do await idlePasses(1);
    while (Date.now() - healthySince < 0.02 * 60_000);
    await idlePasses(1);
    expect((await call(s, 'GET', `${V1}/instances/${id}`, owner)).body.state).toBe('healthy');
  });
});
