import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { WebSocket } from 'ws';
import { describe, expect, it } from 'vitest';
import type { TestServer, TestUser } from '../../../../test/harness.js';
import { call, processServer } from '../../../../test/fixtures.js';
import { eventually, runPlan } from '../../../../test/app-plan.js';
import { jupyterRunner } from './runner.js';

/** Executes `code` in a kernel over the Jupyter messaging WebSocket; the execute_result text. */
function execute(url: string, headers: Record<string, string>, code: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, { headers });
    const msgId = randomUUID();
    const timer = setTimeout(() => reject(new Error('no execute_result')), 30_000);
    ws.on('open', () =>
      ws.send(
        JSON.stringify({
          header: {
            msg_id: msgId,
            msg_type: 'execute_request',
            username: 'test',
            session: randomUUID(),
            version: '5.3',
          },
          parent_header: {},
          metadata: {},
          content: {
            code,
            silent: false,
            store_history: true,
            user_expressions: {},
            allow_stdin: false,
          },
          channel: 'shell',
        }),
      ),
    );
    ws.on('message', (raw) => {
      const m = JSON.parse(String(raw));
      if (m.parent_header?.msg_id !== msgId) return;
      if (m.msg_type === 'error') reject(new Error(m.content.evalue));
      if (m.msg_type !== 'execute_result') return;
      clearTimeout(timer);
      ws.close();
      resolve(m.content.data['text/plain']);
    });
    ws.on('unexpected-response', (_q, res) => reject(new Error(`HTTP ${res.statusCode}`)));
    ws.on('error', reject);
  });
}

/** The jupyter template on the process runtime: Debian's Notebook, a cell run through the ingress. */
describe.skipIf(!existsSync('/usr/bin/jupyter-notebook'))('jupyter template', () => {
  let s: TestServer;
  let owner: TestUser;

  processServer((x) => ({ s, owner } = x));

  it('executes a cell in a kernel through the ingress, notebooks in the persistent home', async () => {
    const { jobs } = await runPlan(s, owner, jupyterRunner, {}, 'nb');
    const base = `${s.url}/ingress/${jobs.main}`;
    const status = await eventually(async () => {
      const r = await fetch(`${base}/api/status`, { headers: owner.headers });
      if (r.status !== 200) throw new Error(`status ${r.status}`);
      return r.json();
    });
    expect(status).toHaveProperty('started');
    expect((await fetch(`${base}/api/status`)).status).toBe(401);

    // The tree page links under the ingress path: the Notebook knows where it is served.
    const tree = await (await fetch(`${base}/tree`, { headers: owner.headers })).text();
    expect(tree).toContain(`/ingress/${jobs.main}/static/`);

    const kernel = await fetch(`${base}/api/kernels`, {
      method: 'POST',
      headers: { ...owner.headers, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'python3' }),
    });
    expect(kernel.status).toBe(201);
    const { id: kid } = (await kernel.json()) as { id: string };
    const before = Date.now();
    const ws = `${base.replace('http', 'ws')}/api/kernels/${kid}/channels`;
    expect(await execute(ws, owner.headers, '1+41')).toBe('42');
    const probe = (_role: string, path: string) =>
      fetch(`${base}${path}`, { headers: owner.headers });
    const at = await jupyterRunner.lastActivity!(probe, {} as never);
    expect(at!.getTime()).toBeGreaterThanOrEqual(before - 1000);

    // A notebook saved through the contents API lands in the instance's home.
    const saved = await fetch(`${base}/api/contents/kept.ipynb`, {
      method: 'PUT',
      headers: { ...owner.headers, 'content-type': 'application/json' },
      body: JSON.stringify({
        type: 'notebook',
        content: { cells: [], metadata: {}, nbformat: 4, nbformat_minor: 5 },
      }),
    });
    expect(saved.status).toBe(201);
    const file = await s.app.inject({
      url: '/api/v1/storage/acme/vision/.apps/jupyter/nb/kept.ipynb?op=OPEN',
      headers: owner.headers,
    });
    expect(file.statusCode).toBe(200);
    expect(JSON.parse(file.body)).toMatchObject({ nbformat: 4 });
    await call(s, 'DELETE', `/api/v1/jobs/${jobs.main}`, owner);
  });
});
