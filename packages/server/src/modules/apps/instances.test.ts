import { existsSync, mkdirSync, readdirSync, rmSync, symlinkSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer, type TestUser } from '../../test/harness.js';
import { RANK_EXCHANGE, RUN_PROG } from '../../test/gang-programs.js';
import { BWRAP } from '../../runtime/process/sandbox.js';
import { call, projectMember, tenancy } from '../../test/fixtures.js';
import {
  NODE,
  V1,
  deployInput,
  expectApp,
  install,
  stateIs,
  tempDir,
  until,
  writeTemplate,
} from '../../test/apps.js';
import { relayAddress } from '../../runtime/process/relay.js';
import { injectAt } from '../../test/ingress.js';

/** Install, states from a real job on the process runtime, outputs, revisions, uninstall. */
describe('app instances', () => {
  let s: TestServer;
  let owner: TestUser;
  let reader: TestUser;
  let outsider: TestUser;
  beforeAll(async () => {
    const dir = writeTemplate(
      tempDir(),
      `name: whoami\ntitle: Who am I\nversion: 1.0.0\npub_date: 2026-10-01\nshort_description: x\nruntimes: [docker]\ndeploy:\n  image: traefik/whoami\n  http_port: 80\n`,
    );
    s = await startTestServer(
      { ORRERY_RUNTIME: 'process', ORRERY_APP_TEMPLATES_DIR: dir },
      { apps: { tickMs: 100 } },
    );
    ({ owner } = await tenancy(s));
    reader = await projectMember(s, 'reader');
    outsider = await s.user();
    await call(s, 'POST', '/api/v1/orgs', outsider, { name: 'elsewhere' });
  });
  afterAll(() => s.stop());

  it('refuses bad input with string paths, one error per field', async () => {
    const r = await install(s, owner, {
      template_name: 'orrery-deploy',
      template_version: '1.0.0',
      input: { preset: { name: 'cpu-small' }, image: 7, http: { port: 'x' } },
    });
    expect(r.status).toBe(400);
    expect(r.body.errors).toEqual(
      expect.arrayContaining([
        { path: ['image'], message: 'must be string' },
        { path: ['http', 'port'], message: 'must be integer' },
      ]),
    );
    expect(r.body.message).toBe(`${r.body.errors[0].path.join('.')}: ${r.body.errors[0].message}`);
    const missing = await install(s, owner, {
      template_name: 'orrery-deploy',
      input: { preset: { name: 'cpu-small' } },
    });
    expect(missing.body.errors).toContainEqual({
      path: ['http'],
      message: "must have required property 'http'",
    });
    const unknown = await install(s, owner, { template_name: 'nope', input: {} });
    expect(unknown.status).toBe(400);
    expect(unknown.body.errors).toEqual([
      { path: ['template_name'], message: 'No app template named nope' },
    ]);
    const noBody = await install(s, owner, { input: 'x' });
    expect(noBody.status).toBe(400);
    expect(noBody.body.errors[0].path).toEqual(['template_name']);
  });

  it('refuses a template this installation cannot run with the catalogue’s message', async () => {
    const r = await install(s, owner, { template_name: 'whoami', input: {} });
    expect(r.status).toBe(400);
    expect(r.body.message).toBe(
      'Who am I needs the docker runtime; this installation runs jobs on process',
    );
  });

  it('refuses an install whose home a job’s symlink leads out of the storage, with the reason', async () => {
    // A job of the project may plant any symlink in its storage, where the apps' homes go.
    const apps = join(s.config.dataDir, 'storage', 'default', 'acme', 'vision', '.apps');
    const outside = tempDir();
    mkdirSync(dirname(apps), { recursive: true });
    symlinkSync(outside, apps);
    try {
      const r = await install(s, owner, {
        template_name: 'orrery-deploy',
        display_name: 'planted',
        input: deployInput('sleep 600'),
      });
      expect(r.status, JSON.stringify(r.body)).toBe(400);
      expect(r.body).toMatchObject({ message: 'Path leads outside the storage', errno: 'EACCES' });
      expect(readdirSync(outside)).toEqual([]);
    } finally {
      rmSync(apps);
    }
  });

  it('installs orrery-deploy: queued, then healthy when its HTTP check answers', async () => {
    const r = await install(s, owner, {
      template_name: 'orrery-deploy',
      template_version: '1.0.0',
      display_name: 'My Web',
      input: deployInput(undefined, { preset: { name: 'no-such-preset' } }),
    });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    expectApp(r.body);
    expect(r.body).toMatchObject({
      name: 'my-web',
      display_name: 'My Web',
      template_name: 'orrery-deploy',
      state: 'queued',
      creator: owner.username,
      home: 'storage:.apps/orrery-deploy/my-web',
    });
    const jobId = r.body.outputParams.jobId as string;
    // The persistent home is a folder of the project's files, made before the job starts.
    const home = await call(
      s,
      'GET',
      '/api/v1/storage/acme/vision/.apps/orrery-deploy?op=LISTSTATUS',
      owner,
    );
    expect(home.body.FileStatuses.FileStatus).toContainEqual(
      expect.objectContaining({ path: 'my-web', type: 'DIRECTORY' }),
    );
    const job = await call(s, 'GET', `/api/v1/jobs/${jobId}`, owner);
    expect(job.body).toMatchObject({
      owner: owner.username,
      preset_name: 'cpu-small', // the preset fallback: the smallest with 0.5 CPU and 1 GB
      tags: expect.arrayContaining([`instance_id:${r.body.id}`, 'app-role:main']),
    });
    const healthy = await until(s, owner, r.body.id, stateIs('healthy'));
    const jobUrl = `http://${jobId}.jobs.localhost:${new URL(s.url).port}/`;
    expect(healthy.endpoints).toEqual([jobUrl]);
    const events = await call(s, 'GET', `${V1}/instances/${r.body.id}/events`, reader);
    const states = events.body.items.map((e: { state: string }) => e.state);
    expect(states[0]).toBe('healthy');
    expect(states.at(-1)).toBe('queued');
    expect(events.body.items[0].resources).toEqual([
      expect.objectContaining({ kind: 'Job', uid: jobId, health_status: 'running' }),
    ]);
    // Open: at the job's own host, with the project's auth; the home folder is mounted.
    const open = await injectAt(s, jobUrl, { headers: owner.headers });
    expect(open.body).toBe('hi true');
    expect((await injectAt(s, jobUrl)).statusCode).toBe(401);
    const output = await call(s, 'GET', `${V1}/instances/${r.body.id}/output`, reader);
    expect(output.body.app_url.external_url).toMatchObject({
      host: `${jobId}.jobs.localhost`,
      protocol: 'http',
      base_path: '/',
      api_type: 'rest',
    });
    // The project's jobs reach it through the process runtime's relay on the host's address.
    expect(output.body.app_url.internal_url).toMatchObject({
      host: relayAddress(),
      port: expect.any(Number),
      protocol: 'http',
    });
    const values = await call(
      s,
      'GET',
      `${V1}/instances/${r.body.id}/values?type=ServiceAPI`,
      reader,
    );
    expect(values.body.items).toEqual([
      { instance_id: r.body.id, type: 'ServiceAPI', path: '$.app_url', value: output.body.app_url },
    ]);
    const none = await call(s, 'GET', `${V1}/instances/values?type=Nothing`, reader);
    expect(none.body.items).toEqual([]);

    // A job killed by hand turns the instance errored, with an event that says so.
    expect((await call(s, 'DELETE', `/api/v1/jobs/${jobId}`, owner)).status).toBe(204);
    await until(s, owner, r.body.id, stateIs('errored'));
    const after = await call(s, 'GET', `${V1}/instances/${r.body.id}/events?size=1`, owner);
    expect(after.body.items[0]).toMatchObject({
      state: 'errored',
      reason: 'JobKilled',
      message: `Job ${jobId} was killed`,
    });
    expect(after.body.pages).toBeGreaterThan(2);
    // The instance itself says why, for its card and its page.
    const errored = await call(s, 'GET', `${V1}/instances/${r.body.id}`, owner);
    expect(errored.body.state_message).toBe(`Job ${jobId} was killed`);
  });

  it('says why an instance whose job fails at once is errored: the job’s reason', async () => {
    const r = await install(s, owner, {
      template_name: 'orrery-deploy',
      input: deployInput('echo no such server >&2; exit 3'),
    });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    const errored = await until(s, owner, r.body.id, stateIs('errored'));
    const [jobId] = errored.job_ids as string[];
    expect(errored.state_message).toMatch(
      new RegExp(`^Job ${jobId} failed: .*\\(exit code 3; its Log tab has the output\\)$`),
    );
    expect(errored.startup).toBeNull();
    await call(s, 'DELETE', `${V1}/instances/${r.body.id}?force=true`, owner);
  });

  it('configures only x-is-configurable fields, as new revisions, and rolls back', async () => {
    const r = await install(s, owner, {
      template_name: 'orrery-deploy',
      display_name: 'Revised',
      input: deployInput(),
    });
    const id = r.body.id as string;
    const url = `${V1}/instances/${id}`;
    const fixed = await call(s, 'PUT', url, owner, { input: { http: { port: 9000 } } });
    expect(fixed.status).toBe(400);
    expect(fixed.body.errors).toEqual([
      { path: ['http'], message: 'This field cannot be changed after install' },
    ]);
    // The whole input sent back with the defaults it ran with is no change.
    const asRan = (await call(s, 'GET', `${url}/input`, owner)).body;
    expect(asRan.http).toEqual({ port: 8080, health_path: '/', auth: 'apolo_auth' });
    const same = await call(s, 'PUT', url, owner, { input: { ...asRan, env: [] } });
    expect(same.status, JSON.stringify(same.body)).toBe(200);
    const second = deployInput().command!.replace("'hi '", "'v2 '");
    const put = await call(s, 'PUT', url, owner, { input: { command: second }, comment: 'v2' });
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    await until(s, owner, id, stateIs('healthy'));
    const job2 = (await call(s, 'GET', url, owner)).body.job_ids[0];
    const url2 = `http://${job2}.jobs.localhost:${new URL(s.url).port}/`;
    expect((await injectAt(s, url2, { headers: owner.headers })).body).toBe('v2 true');
    const revisions = await call(s, 'GET', `/apis/apps/v2/instances/${id}/revisions`, owner);
    expect(revisions.body).toEqual([
      expect.objectContaining({ revision_number: 1, comment: null, end_at: expect.any(String) }),
      expect.objectContaining({ revision_number: 2, comment: null, end_at: expect.any(String) }),
      expect.objectContaining({ revision_number: 3, comment: 'v2', end_at: null }),
    ]);
    expect(revisions.body[0].creator).toBe(owner.username);
    const first = await call(s, 'GET', `${url}/revisions/1/input`, reader);
    expect(first.body.command).toBe(deployInput().command);
    expect((await call(s, 'GET', `${url}/input`, reader)).body.command).toBe(second);
    const back = await call(s, 'POST', `${url}/revisions/1/rollback`, owner, {});
    expect(back.body.state).toBe('queued');
    expect(back.status).toBe(200);
    await until(s, owner, id, stateIs('healthy'));
    expect((await call(s, 'GET', `${url}/input`, reader)).body.command).toBe(deployInput().command);
    const last = await call(s, 'GET', `/apis/apps/v2/instances/${id}/revisions`, owner);
    expect(last.body.at(-1)).toMatchObject({
      revision_number: 4,
      comment: 'Rollback to revision 1',
    });
    expect((await call(s, 'POST', `${url}/revisions/9/rollback`, owner, {})).status).toBe(404);
    // A reader may look, not change.
    expect((await call(s, 'PUT', url, reader, { display_name: 'x' })).status).toBe(403);
    const renamed = await call(s, 'PUT', url, owner, { display_name: 'Renamed' });
    expect(renamed.body).toMatchObject({ display_name: 'Renamed', name: 'revised' });
    // Its job leaves the machine's capacity to the next tests.
    await call(s, 'DELETE', `${url}?force=true`, owner);
  });

  it('lists with v2 paging and states; uninstall hides the instance', async () => {
    const r = await install(s, owner, { template_name: 'orrery-deploy', input: deployInput() });
    const id = r.body.id as string;
    // Started before it is stopped: a kill while the process runtime sets up its network is
    // that runtime's own case, not this one.
    await until(s, owner, id, stateIs('healthy'));
    const listed = await call(
      s,
      'GET',
      `/apis/apps/v2/instances?cluster=default&org=acme&project=vision&page=1&size=1&states=queued&states=progressing&states=healthy&states=errored`,
      reader,
    );
    expect(listed.status).toBe(200);
    expect(listed.body.items).toHaveLength(1);
    expect(listed.body.pages).toBeGreaterThanOrEqual(2);
    const del = await call(s, 'DELETE', `${V1}/instances/${id}`, owner);
    expect(del.status).toBe(200);
    // Uninstalled once its jobs have ended, which a killed process does at once.
    expect(['uninstalling', 'uninstalled']).toContain(del.body.state);
    await until(s, owner, id, stateIs('uninstalled'));
    const visible = await call(s, 'GET', `${V1}/instances`, owner);
    expect(visible.body.items.map((a: { id: string }) => a.id)).not.toContain(id);
    const all = await call(
      s,
      'GET',
      `/apis/apps/v2/instances?org=acme&project=vision&size=100`,
      owner,
    );
    expect(all.body.items.map((a: { id: string }) => a.id)).toContain(id);
    const forced = await install(s, owner, {
      template_name: 'orrery-deploy',
      input: deployInput(),
    });
    await until(s, owner, forced.body.id, stateIs('healthy'));
    const gone = await call(s, 'DELETE', `${V1}/instances/${forced.body.id}?force=true`, owner);
    expect(gone.body.state).toBe('uninstalled');
  });

  it('turns degraded when the HTTP check stops answering while the job runs', async () => {
    // Answers its first ten requests, then 500: running, but no longer healthy.
    const flaky = `${NODE} -e "let n=0;require('http').createServer((q,r)=>{r.statusCode=++n>10?500:200;r.end()}).listen(process.env.PORT)"`;
    const r = await install(s, owner, {
      template_name: 'orrery-deploy',
      input: deployInput(flaky),
    });
    const id = r.body.id as string;
    const degraded = await until(s, owner, id, stateIs('degraded'));
    expect(degraded.job_ids).toHaveLength(1);
    const events = await call(s, 'GET', `${V1}/instances/${id}/events`, owner);
    expect(events.body.items[1].state).toBe('healthy');
    expect(events.body.items[0]).toMatchObject({
      state: 'degraded',
      reason: 'HealthCheckFailed',
      message: 'The app answered 500 at /',
    });
    expect(degraded.state_message).toBe('The app answered 500 at /');
    await call(s, 'DELETE', `${V1}/instances/${id}?force=true`, owner);
  });

  it('runs the job template as one job with the preset it names', async () => {
    const r = await install(s, owner, {
      template_name: 'job',
      input: {
        image: 'busybox',
        preset_name: 'cpu-medium',
        command: 'echo from-the-job-template',
        env: [{ name: 'MODE', value: 'x', type: 'variable' }],
      },
    });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    const job = await call(s, 'GET', `/api/v1/jobs/${r.body.outputParams.jobId}`, owner);
    expect(job.body).toMatchObject({
      preset_name: 'cpu-medium',
      container: { command: 'echo from-the-job-template', env: { MODE: 'x' } },
    });
    // A job without HTTP is healthy once it ran; it succeeded here.
    await until(s, owner, r.body.id, stateIs('healthy'));
    const log = await s.app.inject({
      url: `/api/v1/apps/${r.body.id}/log`,
      headers: owner.headers,
    });
    expect(JSON.parse(log.body.trim()).log).toBe('from-the-job-template');
  });

  // Jobs of several workers on the process runtime need a root server's sandbox (docs/jobs.md).
  it.runIf(process.getuid?.() === 0 && existsSync(BWRAP))(
    'runs the job template as a job of the workers it asks for, that find each other',
    async () => {
      const r = await install(s, owner, {
        template_name: 'job',
        input: {
          image: 'busybox',
          preset_name: 'cpu-small',
          nodes: 2,
          command: RUN_PROG,
          env: [{ name: 'PROG', value: RANK_EXCHANGE, type: 'variable' }],
        },
      });
      expect(r.status, JSON.stringify(r.body)).toBe(201);
      const id = r.body.outputParams.jobId as string;
      expect((await call(s, 'GET', `/api/v1/jobs/${id}`, owner)).body).toMatchObject({ nodes: 2 });
      await until(s, owner, r.body.id, stateIs('healthy'));
      const log = await s.app.inject({ url: `/api/v1/jobs/${id}/log`, headers: owner.headers });
      expect(log.body.trim().split('\n').sort()).toEqual([
        expect.stringMatching(/^rank 0 of 2 heard ranks 1 uid \d+$/),
        expect.stringMatching(/^rank 1 of 2 heard rank 0 uid \d+$/),
      ]);
      // More than the jobs API takes is the template's input error, before anything starts.
      const bad = await install(s, owner, {
        template_name: 'job',
        input: { image: 'busybox', preset_name: 'cpu-small', nodes: 1025, command: 'true' },
      });
      expect(bad.status).toBe(400);
      expect(JSON.stringify(bad.body)).toMatch(/nodes/);
    },
  );

  it('shows another organization nothing', async () => {
    const r = await install(s, owner, { template_name: 'orrery-deploy', input: deployInput() });
    const id = r.body.id as string;
    await until(s, owner, id, stateIs('healthy'));
    expect((await call(s, 'GET', `/apis/apps/v2/instances/${id}`, outsider)).status).toBe(404);
    expect((await call(s, 'GET', `${V1}/instances/${id}`, outsider)).status).toBe(404);
    expect((await call(s, 'GET', `${V1}/instances/${id}/output`, outsider)).status).toBe(404);
    expect((await call(s, 'DELETE', `${V1}/instances/${id}`, outsider)).status).toBe(404);
    expect(
      (await call(s, 'GET', `/apis/apps/v2/instances?org=acme&project=vision`, outsider)).status,
    ).toBe(404);
    expect((await install(s, outsider, { template_name: 'orrery-deploy', input: {} })).status).toBe(
      404,
    );
    // The same id under another project's path is not found either.
    const elsewhere = '/apis/apps/v1/cluster/default/org/elsewhere/project/x';
    expect((await call(s, 'GET', `${elsewhere}/instances/${id}`, outsider)).status).toBe(404);
    expect((await install(s, reader, { template_name: 'orrery-deploy', input: {} })).status).toBe(
      403,
    );
    await call(s, 'DELETE', `${V1}/instances/${id}?force=true`, owner);
  });
});
