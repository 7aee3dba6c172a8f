import { eq } from 'drizzle-orm';
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { WebSocket } from 'ws';
import { describe, expect, it } from 'vitest';
import { jobs } from '../../../../db/schema.js';
import type { TestServer, TestUser } from '../../../../test/harness.js';
import { eventually } from '../../../../test/app-instance.js';
import { call, processServer, submitJob } from '../../../../test/fixtures.js';
import { containerOf, jobById } from '../../../jobs/store.js';
import { pathForJob, publicIngressPath } from '../../../jobs/wire.js';

/**
 * JupyterLab serves under the base URL it is given and makes absolute links from it, so its job
 * must receive the ingress path the browser used, not the rest the ingress strips it to. A real
 * HTTP server in a process job answers with the path it received.
 */
describe('the ingress path forwarded to jobs that serve under a base URL', () => {
  let s: TestServer;
  let owner: TestUser;
  processServer((started) => ({ s, owner } = started));

  const NOTEBOOK = '/usr/bin/jupyter-notebook';
  const echo = `${process.execPath} -e "require('http').createServer((q,r)=>r.end('got '+q.url)).listen(process.env.PORT,'127.0.0.1')"`;

  const served = async (id: string, path: string) => {
    for (let i = 0; i < 200; i++) {
      const r = await s.app.inject({ method: 'GET', url: path, headers: owner.headers });
      if (r.statusCode !== 502) return r;
      await new Promise((done) => setTimeout(done, 100));
    }
    throw new Error(`job ${id} never served ${path}`);
  };

  it('strips the prefix by default and forwards it for a job that asks', async () => {
    const id = await submitJob(s, owner, echo, { http: { port: 8080, requires_auth: true } });
    const plain = await served(id, `/ingress/${id}/lab/tree?x=1`);
    expect(plain.body).toBe('got /lab/tree?x=1');

    // The apps service sets the flag when it creates an app's job (`AppJob.forwardPrefix`); the
    // jobs API offers no such field, so here it is set on the record as the service would.
    await forwardPrefix(id);

    const forwarded = await served(id, `/ingress/${id}/lab/tree?x=1`);
    expect(forwarded.statusCode).toBe(200);
    expect(forwarded.body).toBe(`got /ingress/${id}/lab/tree?x=1`);
    // Auth still applies to the forwarded path.
    expect((await s.app.inject({ method: 'GET', url: `/ingress/${id}/lab` })).statusCode).toBe(401);

    // A rerun of such a job keeps receiving its own prefix.
    await call(s, 'DELETE', `/api/v1/jobs/${id}`, owner);
    const rerun = await call(s, 'POST', `/api/v1/jobs/${id}/rerun`, owner);
    expect(rerun.status).toBe(202);
    const again = rerun.body.id as string;
    expect((await served(again, `/ingress/${again}/api/status`)).body).toBe(
      `got /ingress/${again}/api/status`,
    );
    await call(s, 'DELETE', `/api/v1/jobs/${again}`, owner);
  });

  /** Sets the flag on a job's record, as the apps service does at creation (see above). */
  const forwardPrefix = async (id: string) => {
    const container = containerOf((await jobById(s.ctx.db, id))!);
    await s.ctx.db
      .update(jobs)
      .set({ container: { ...container, http: { ...container.http!, forward_prefix: true } } })
      .where(eq(jobs.id, id));
  };

  // A stand-in for JupyterLab, which is not packaged here: Debian's Notebook, a real Jupyter
  // server, given the same base URL from the job's host name as the jupyter-lab runner does.
  it.skipIf(!existsSync(NOTEBOOK))(
    'serves a real Jupyter server under its ingress path, its pages and links',
    async () => {
      const id = await submitJob(
        s,
        owner,
        `exec ${NOTEBOOK} --no-browser --ip=127.0.0.1 --port=$PORT --NotebookApp.base_url=/ingress/$(hostname)/ --NotebookApp.token= --NotebookApp.password= --NotebookApp.disable_check_xsrf=True --notebook-dir=/tmp`,
        {
          image: 'debian:bookworm',
          env: { HOME: '/tmp', JUPYTER_RUNTIME_DIR: '/tmp/jupyter-runtime' },
          http: { port: 8888, health_check_path: '/api/status', requires_auth: true },
        },
      );
      // Stripped, the path misses the base URL the server answers under.
      const stripped = await eventually(async () => {
        const r = await served(id, `/ingress/${id}/api/status`);
        if (r.statusCode >= 500) throw new Error(`status ${r.statusCode}`);
        return r;
      });
      expect(stripped.statusCode).toBe(404);

      await forwardPrefix(id);
      const status = await served(id, `/ingress/${id}/api/status`);
      expect(status.statusCode).toBe(200);
      expect(JSON.parse(status.body)).toHaveProperty('started');
      const tree = await served(id, `/ingress/${id}/tree`);
      expect(tree.statusCode).toBe(200);
      const script = tree.body.match(new RegExp(`/ingress/${id}/static/[^"?]+\\.js`))?.[0];
      expect(script).toBeDefined();
      expect((await served(id, script!)).statusCode).toBe(200);

      // A kernel, and its channels' WebSocket upgraded under the same path.
      const kernel = await s.app.inject({
        method: 'POST',
        url: `/ingress/${id}/api/kernels`,
        headers: { ...owner.headers, 'content-type': 'application/json' },
        payload: JSON.stringify({ name: 'python3' }),
      });
      expect(kernel.statusCode).toBe(201);
      const channels = `${s.url.replace('http', 'ws')}/ingress/${id}/api/kernels/${JSON.parse(kernel.body).id}/channels`;
      // The client's socket opens at the ingress before the job's does: only an answer from the
      // kernel shows that the job accepted the forwarded path.
      const ws = new WebSocket(channels, { headers: owner.headers });
      const msgId = randomUUID();
      const reply = await new Promise<string>((resolve) => {
        ws.on('open', () =>
          ws.send(
            JSON.stringify({
              header: {
                msg_id: msgId,
                msg_type: 'kernel_info_request',
                session: msgId,
                username: 't',
                version: '5.3',
              },
              parent_header: {},
              metadata: {},
              content: {},
              channel: 'shell',
            }),
          ),
        );
        ws.on('message', (raw) => {
          const m = JSON.parse(String(raw));
          if (m.parent_header?.msg_id === msgId && m.channel === 'shell') resolve(m.msg_type);
        });
        ws.on('close', () => resolve('closed'));
        ws.on('unexpected-response', () => resolve('refused'));
      });
      ws.close();
      expect(reply).toBe('kernel_info_reply');
      await call(s, 'DELETE', `/api/v1/jobs/${id}`, owner);
    },
  );

  it('puts the public URL’s own path in front when Orrery is served under one', async () => {
    const id = await submitJob(s, owner, 'true', { http: { port: 8080 } });
    const row = (await jobById(s.ctx.db, id))!;
    const container = containerOf(row);
    const flagged = {
      ...row,
      container: { ...container, http: { ...container.http!, forward_prefix: true } },
    };
    const pub = 'https://example.org/orrery/';
    expect(publicIngressPath(id, pub)).toBe(`/orrery/ingress/${id}/`);
    expect(pathForJob(flagged, pub, '/api/kernels')).toBe(`/orrery/ingress/${id}/api/kernels`);
    expect(pathForJob(row, pub, '/api/kernels')).toBe('/api/kernels');
  });
});
