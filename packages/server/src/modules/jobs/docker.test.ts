import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer, type TestUser } from '../../test/harness.js';
import { call, tenancy } from '../../test/fixtures.js';
import { canRunDockerd, importBusybox, startDockerd, type Dockerd } from '../../test/dockerd.mjs';
import { REGISTRY_BINARY } from '../images/supervisor.js';
import { injectAt, whenServing } from '../../test/ingress.js';
import { RANK_EXCHANGE_BUSYBOX } from '../../test/gang-programs.js';

const IMAGE = 'busybox:orrery';
const SCOPE = { cluster_name: 'default', org_name: 'acme', project_name: 'vision' };

/**
 * Jobs through the API on the docker runtime: a private dockerd (Debian's docker.io), an image
 * of Debian's busybox-static, and Orrery's own registry for "Save image".
 */
describe.skipIf(!canRunDockerd || !existsSync(REGISTRY_BINARY))(
  'jobs on the docker runtime',
  () => {
    let dockerd: Dockerd;
    let s: TestServer;
    let owner: TestUser;
    const network = `orrery-jobs-${process.pid}`;
    const subnet = `10.${150 + (process.pid % 40)}.${process.pid % 250}.0/24`;

    const run = async (command: string, extra: Record<string, unknown> = {}) => {
      const r = await call(s, 'POST', '/api/v1/jobs?from_preset', owner, {
        ...SCOPE,
        preset_name: 'cpu-small',
        image: IMAGE,
        command,
        ...extra,
      });
      expect(r.status, JSON.stringify(r.body)).toBe(202);
      return r.body.id as string;
    };
    const until = async (id: string, statuses: string[]) => {
      for (let i = 0; i < 400; i++) {
        const j = (await call(s, 'GET', `/api/v1/jobs/${id}`, owner)).body;
        if (statuses.includes(j.status)) return j;
        await new Promise((r) => setTimeout(r, 50));
      }
      throw new Error(`job ${id} never reached ${statuses.join('/')}`);
    };

    beforeAll(async () => {
      dockerd = await startDockerd();
      importBusybox(dockerd, IMAGE);
      dockerd.docker(['network', 'create', '--subnet', subnet, network]);
      s = await startTestServer(
        { ORRERY_RUNTIME: 'docker', DOCKER_HOST: dockerd.host, ORRERY_DOCKER_NETWORK: network },
        { listen: true },
      );
      ({ owner } = await tenancy(s));
    }, 120_000);
    afterAll(async () => {
      await s?.stop();
      await dockerd?.stop();
    });

    it('runs a container to its exit code and keeps its log', async () => {
      const id = await run('echo hello from a container; exit 2');
      const done = await until(id, ['succeeded', 'failed']);
      expect(done).toMatchObject({
        status: 'failed',
        runtime: 'docker',
        history: { exit_code: 2 },
      });
      expect(done.runtime_warning).toBeUndefined();
      const log = await s.app.inject({
        method: 'GET',
        url: `/api/v1/jobs/${id}/log`,
        headers: owner.headers,
      });
      expect(log.body).toBe('hello from a container\n');
    });

    it('runs a job of two workers that find each other, one log each and merged', async () => {
      // The job form offers Workers here: the runtime says of no refusal.
      const info = await call(s, 'GET', '/api/v1/jobs/runtime', owner);
      expect(info.body.workers_refusal).toBeUndefined();
      const id = await run(RANK_EXCHANGE_BUSYBOX, { nodes: 2 });
      const done = await until(id, ['succeeded', 'failed']);
      expect(done).toMatchObject({ status: 'succeeded', nodes: 2, history: { exit_code: 0 } });
      const log = async (query = '') =>
        (
          await s.app.inject({
            method: 'GET',
            url: `/api/v1/jobs/${id}/log${query}`,
            headers: owner.headers,
          })
        ).body;
      expect((await log()).split('\n').sort()).toEqual([
        '',
        'rank 0 of 2 heard rank 1',
        'rank 1 of 2 heard rank 0',
      ]);
      expect(await log('?worker=1')).toBe('rank 1 of 2 heard rank 0\n');
    });

    it('fails a job of several workers when one fails, saying which', async () => {
      const id = await run('if [ "$RANK" = 1 ]; then exit 3; fi; exec sleep 600', { nodes: 2 });
      const done = await until(id, ['failed']);
      expect(done.history).toMatchObject({
        exit_code: 3,
        description: 'Worker 1 of 2 exited with code 3; the other workers were stopped',
      });
    });

    it('serves the container’s HTTP port through the ingress, at the job’s own host', async () => {
      const id = await run(
        'mkdir -p /www && echo served by busybox > /www/index.html && httpd -f -p 8080 -h /www',
        { http: { port: 8080, requires_auth: false } },
      );
      await until(id, ['running']);
      const at = `http://${id}.jobs.localhost:${new URL(s.url).port}/index.html`;
      const answer = await whenServing(() => injectAt(s, at));
      expect(answer.statusCode).toBe(200);
      expect(answer.body).toBe('served by busybox\n');
      await call(s, 'DELETE', `/api/v1/jobs/${id}`, owner);
    });

    it('fails a privileged job, saying why: a privileged container is root on the host', async () => {
      const id = await run('true', { privileged: true });
      const done = await until(id, ['failed']);
      expect(done.history).toMatchObject({
        reason: 'ContainerCannotRun',
        description: expect.stringMatching(/^Privileged jobs are refused on the docker runtime/),
      });
    });

    it('saves a running job as an image of the project, with the progress the Apolo CLI reads', async () => {
      const id = await run('echo changed > /marker; sleep 60');
      await until(id, ['running']);
      const host = new URL(s.url).host;
      const saved = await fetch(`${s.url}/api/v1/jobs/${id}/save`, {
        method: 'POST',
        headers: { ...owner.headers, 'content-type': 'application/json' },
        body: JSON.stringify({ container: { image: `${host}/acme/vision/saved:v1` } }),
      });
      expect(saved.status).toBe(200);
      expect(saved.headers.get('content-type')).toContain('application/x-ndjson');
      const lines = (await saved.text())
        .split('\r\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l) as Record<string, unknown>);
      expect(lines[0]).toMatchObject({ status: 'CommitStarted' });
      expect(lines[1]).toEqual({ status: 'CommitFinished' });
      expect(lines.find((l) => l.error)).toBeUndefined();
      expect(lines.at(-1)).toMatchObject({ aux: { Tag: 'v1' } });
      const images = await call(s, 'GET', `/api/v1/images?${new URLSearchParams(SCOPE)}`, owner);
      expect(images.body.images).toContainEqual(
        expect.objectContaining({ name: 'saved', tags: ['v1'] }),
      );
      await call(s, 'DELETE', `/api/v1/jobs/${id}`, owner);
    });
  },
);
