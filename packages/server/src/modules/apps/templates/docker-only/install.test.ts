import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eventually } from '../../../../test/app-instance.js';
import { install, stateIs, until, V1 } from '../../../../test/apps.js';
import {
  canRunDockerd,
  importBusybox,
  startDockerd,
  type Dockerd,
} from '../../../../test/dockerd.mjs';
import { call, jobEnded, submitJob, tenancy } from '../../../../test/fixtures.js';
import { injectAt } from '../../../../test/ingress.js';
import { startTestServer, type TestServer, type TestUser } from '../../../../test/harness.js';
import { containerOf } from '../../../jobs/container.js';
import { jobsOfInstance, roleTag } from '../../store.js';
import { JUPYTER_LAB_IMAGE } from './apps.js';
import { DIFY_VERSION } from './dify.js';
import { difyInput } from '../../../../test/app-plans.js';

const BUSYBOX = 'busybox:orrery';

/**
 * Docker-only templates installed through the apps API on the docker runtime (a private dockerd
 * of Debian's docker.io). Their public images cannot be pulled here: each is a stand-in, Debian's
 * busybox tagged with the image's name (for jupyter-lab, with scripts in place of its programs),
 * so what is checked is what the service made of the plan (the jobs, their env with their
 * siblings' relays and URLs, the project secrets, the command), not the app.
 */
describe.skipIf(!canRunDockerd)('docker-only templates installed on the docker runtime', () => {
  let dockerd: Dockerd;
  let s: TestServer;
  let owner: TestUser;
  const network = `orrery-apps-${process.pid}`;
  const subnet = `10.${190 + (process.pid % 40)}.${process.pid % 250}.0/24`;

  beforeAll(async () => {
    dockerd = await startDockerd();
    importBusybox(dockerd, BUSYBOX);
    buildJupyterStandIn(dockerd);
    for (const stand_in of [
      `langgenius/dify-api:${DIFY_VERSION}`,
      `langgenius/dify-web:${DIFY_VERSION}`,
      'redis:7.4-alpine',
    ])
      dockerd.docker(['tag', BUSYBOX, stand_in]);
    dockerd.docker(['network', 'create', '--subnet', subnet, network]);
    s = await startTestServer(
      { ORRERY_RUNTIME: 'docker', DOCKER_HOST: dockerd.host, ORRERY_DOCKER_NETWORK: network },
      { listen: true, apps: { tickMs: 200 } },
    );
    ({ owner } = await tenancy(s));
  }, 120_000);
  afterAll(async () => {
    await s?.stop();
    await dockerd?.stop();
  });

  const jobsByRole = async (instance: string) => {
    const rows = await jobsOfInstance(s.ctx.db, instance);
    const role = (r: (typeof rows)[number]) =>
      r.tags.find((t) => t.startsWith('app-role:'))!.slice('app-role:'.length);
    return Object.fromEntries(rows.map((r) => [role(r), r]));
  };

  it('names a container after its job: its host name is the job id', async () => {
    const id = await submitJob(s, owner, 'echo "$(hostname) $HOSTNAME"', { image: BUSYBOX });
    await jobEnded(s, owner, id);
    // The log may still be on its way from the engine when the job is seen ended.
    const log = await eventually(async () => {
      const r = await s.app.inject({
        method: 'GET',
        url: `/api/v1/jobs/${id}/log`,
        headers: owner.headers,
      });
      // Whole lines only: the engine may hand the line over before its newline.
      if (!r.body.endsWith('\n')) throw new Error(`no whole log yet: ${r.body}`);
      return r.body;
    });
    expect(log).toBe(`${id} ${id}\n`);
  });

  it('installs dify as four jobs wired through Redis’s relay, its secrets in the project', async () => {
    const r = await install(s, owner, {
      template_name: 'dify',
      template_version: '1.0.0',
      display_name: 'Dify',
      input: difyInput('pg-password'),
    });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    const jobs = await jobsByRole(r.body.id);
    expect(Object.keys(jobs).sort()).toEqual(['api', 'redis', 'web', 'worker']);
    const env = (role: string) => containerOf(jobs[role]).env;
    // Redis's relay (runtime/docker/relay.ts): on the bridge's gateway, open from the moment the
    // API and the worker were created, before Redis started.
    const redis = {
      REDIS_HOST: gatewayOf(dockerd, network),
      REDIS_PORT: expect.stringMatching(/^\d+$/),
    };
    expect(env('api')).toMatchObject({ ...redis, MODE: 'api' });
    expect(env('worker')).toMatchObject({ ...redis, MODE: 'worker' });
    expect(env('worker').REDIS_PORT).toBe(env('api').REDIS_PORT);
    // Whether that relay still listens is not asked: Redis's image cannot be pulled here, so its
    // job fails, and its relay closes, at a moment of the machine's choosing. Relays themselves
    // are tested in runtime/docker/driver.test.ts.
    const apiUrl = `http://${jobs.api.id}.jobs.localhost:${new URL(s.url).port}`;
    expect(env('web')).toMatchObject({ CONSOLE_API_URL: apiUrl, APP_API_URL: apiUrl });
    expect(jobs.web.tags).toContain(roleTag('web'));

    const secrets = await call(
      s,
      'GET',
      '/api/v1/secrets?org_name=acme&project_name=vision',
      owner,
    );
    const keys = (secrets.body as { key: string }[]).map((x) => x.key);
    const name = r.body.name as string;
    for (const key of ['secret-key', 'redis-password', 'init-password'])
      expect(keys).toContain(`app-${name}-dify-${key}`);
    // Passwords and keys reach the jobs as project secrets only, never in their plain env.
    for (const j of Object.values(jobs))
      expect(Object.keys(containerOf(j).env)).not.toEqual(
        expect.arrayContaining([expect.stringMatching(/PASSWORD|SECRET/)]),
      );
    expect(containerOf(jobs.api).secret_env).toMatchObject({
      SECRET_KEY: expect.stringMatching(new RegExp(`^secret:.*app-${name}-dify-secret-key$`)),
    });
  });

  it('installs jupyter-lab: healthy at the root of its own host, and reached by a job of the project at its internal URL', async () => {
    const r = await install(s, owner, {
      template_name: 'jupyter-lab',
      template_version: '1.0.0',
      input: { preset: { name: 'cpu-small' } },
    });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    const { main } = await jobsByRole(r.body.id);
    // A notebook: opening it needs write access to the job.
    expect(containerOf(main).http).toMatchObject({ port: 8888, interactive: 'notebook' });
    // Healthy: the watcher's check reached /api/status.
    await until(s, owner, r.body.id, stateIs('healthy'));
    const jobUrl = `http://${main.id}.jobs.localhost:${new URL(s.url).port}/`;
    const status = await injectAt(s, `${jobUrl}api/status`, { headers: owner.headers });
    expect(status.statusCode).toBe(200);
    expect(JSON.parse(status.body)).toEqual({
      base_url: '/',
      root_dir: '/home/jovyan',
      cwd: '/home/jovyan',
    });
    const output = await call(s, 'GET', `${V1}/instances/${r.body.id}/output`, owner);
    expect(output.body.app_url.external_url).toMatchObject({
      host: `${main.id}.jobs.localhost`,
      base_path: '/lab',
    });
    // The project's jobs reach it at its internal URL: its relay, on the bridge's gateway.
    const { host, port } = output.body.app_url.internal_url;
    expect(host).toBe(gatewayOf(dockerd, network));
    const request = `GET /api/status HTTP/1.0\\r\\n\\r\\n`;
    const id = await submitJob(
      s,
      owner,
      `printf '${request}' | nc -w 3 ${host} ${port}; echo "exit $?"`,
      {
        image: BUSYBOX,
      },
    );
    await jobEnded(s, owner, id);
    const log = await eventually(async () => {
      const l = await s.app.inject({
        method: 'GET',
        url: `/api/v1/jobs/${id}/log`,
        headers: owner.headers,
      });
      if (!l.body) throw new Error('no log yet');
      return l.body;
    });
    expect(log).toContain('{"base_url":"/"');
    expect(log).toMatch(/exit 0\n$/);
  });
});

/** The host's address on a network's bridge (down until a container joins, so not in os). */
function gatewayOf(dockerd: Dockerd, network: string): string {
  const id = JSON.parse(dockerd.docker(['network', 'inspect', network]))[0].Id as string;
  const dev = `br-${id.slice(0, 12)}`;
  const [link] = JSON.parse(
    execFileSync('ip', ['-j', '-4', 'addr', 'show', 'dev', dev], { encoding: 'utf8' }),
  );
  return link.addr_info[0].local;
}

/**
 * A stand-in for the JupyterLab image: busybox with `tini` and `start.sh` that run what follows
 * them, as the real ones do, and a `start-notebook.py` that serves, under the base URL it is
 * given, what it was given.
 */
function buildJupyterStandIn(dockerd: Dockerd) {
  const dir = mkdtempSync(join(tmpdir(), 'orrery-jupyter-stand-in-'));
  const script = (name: string, body: string) =>
    writeFileSync(join(dir, name), `#!/bin/sh\n${body}\n`, { mode: 0o755 });
  script('tini', 'while [ "$1" != "--" ]; do shift; done; shift; exec "$@"');
  script('start.sh', 'exec "$@"');
  script(
    'start-notebook.py',
    [
      // JupyterLab's own default: the root.
      'base=/',
      'for a in "$@"; do case "$a" in',
      '  --ServerApp.base_url=*) base="${a#*=}" ;;',
      '  --ServerApp.root_dir=*) root="${a#*=}" ;;',
      'esac; done',
      'mkdir -p "/www${base}api"',
      'printf \'{"base_url":"%s","root_dir":"%s","cwd":"%s"}\' "$base" "$root" "$(pwd)" > "/www${base}api/status"',
      'exec httpd -f -p 8888 -h /www',
    ].join('\n'),
  );
  writeFileSync(
    join(dir, 'Dockerfile'),
    `FROM ${BUSYBOX}\nCOPY tini start.sh start-notebook.py /usr/local/bin/\nENTRYPOINT ["tini", "-g", "--", "start.sh"]\n`,
  );
  try {
    dockerd.docker(['build', '-q', '-t', JUPYTER_LAB_IMAGE, dir]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
