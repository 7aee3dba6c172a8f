import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { WebSocket } from 'ws';
import { beforeAll, describe, expect, it } from 'vitest';
import type { TestServer, TestUser } from '../../../../test/harness.js';
import { processServer } from '../../../../test/fixtures.js';
import {
  installApp,
  openSession,
  outsiderOf,
  uninstallApp,
  urlOf,
} from '../../../../test/app-instance.js';
import { jupyterRunner } from './runner.js';

/** Executes `code` in a kernel over the Jupyter messaging WebSocket; the execute_result text. */
function execute(url: string, headers: Record<string, string>, code: string): Promise<string> {
  return new Promise((resolve, reject) => {
    // From the notebook's own page, as a browser sends it.
    const origin = new URL(url.replace(/^ws/, 'http')).origin;
    const ws = new WebSocket(url, { headers: { origin, ...headers } });
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
    ws.on('unexpected-response', (_q, res) => {
      clearTimeout(timer);
      reject(new Error(`HTTP ${res.statusCode}`));
    });
    ws.on('error', reject);
  });
}

/** The jupyter template on the process runtime: Debian's Notebook, a cell run through Open. */
describe.skipIf(!existsSync('/usr/bin/jupyter-notebook'))('jupyter template', () => {
  let s: TestServer;
  let owner: TestUser;
  let outsider: TestUser;

  processServer((x) => ({ s, owner } = x));
  beforeAll(async () => (outsider = await outsiderOf(s)));

  it('installs, opens with a session only, executes a cell, keeps notebooks, uninstalls', async () => {
    const app = await installApp(s, owner, 'jupyter', 'nb');
    const base = app.url!.replace(/\/$/, '');
    const tree = urlOf(app.outputs.app_url.external_url);
    expect(tree).toBe(`${base}/tree`);
    const session = await openSession(s, app.url!, owner);

    // Open leads to the Notebook's tree page, served at the root of the job's own host.
    const page = await fetch(app.url!, { headers: session });
    expect(page.url.replace(/\?$/, '')).toBe(tree);
    expect(page.status).toBe(200);
    expect(new URL(app.url!).hostname).toBe(`${app.jobIds[0]}.jobs.localhost`);
    expect(await page.text()).toContain('"/static/');
    // Without a session, and signed in to another organization: the ingress answers as to no one.
    expect((await fetch(tree)).status).toBe(401);
    expect((await fetch(tree, { headers: outsider.headers })).status).toBe(404);

    const kernel = await fetch(`${base}/api/kernels`, {
      method: 'POST',
      headers: { ...session, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'python3' }),
    });
    expect(kernel.status).toBe(201);
    const { id: kid } = (await kernel.json()) as { id: string };
    const before = Date.now();
    const ws = `${base.replace('http', 'ws')}/api/kernels/${kid}/channels`;
    expect(await execute(ws, session, 'sum(range(1, 10)) * 2')).toBe('90');
    await expect(execute(ws, {}, '1')).rejects.toThrow('HTTP 401');
    const probe = (_role: string, path: string) => fetch(`${base}${path}`, { headers: session });
    const at = await jupyterRunner.lastActivity!(probe, {} as never);
    expect(at!.getTime()).toBeGreaterThanOrEqual(before - 1000);

    // A notebook saved through the contents API lands in the instance's home.
    const saved = await fetch(`${base}/api/contents/kept.ipynb`, {
      method: 'PUT',
      headers: { ...session, 'content-type': 'application/json' },
      body: JSON.stringify({
        type: 'notebook',
        content: { cells: [], metadata: {}, nbformat: 4, nbformat_minor: 5 },
      }),
    });
    expect(saved.status).toBe(201);
    await uninstallApp(s, owner, app);
    const file = await s.app.inject({
      url: '/api/v1/storage/acme/vision/.apps/jupyter/nb/kept.ipynb?op=OPEN',
      headers: owner.headers,
    });
    expect(file.statusCode).toBe(200);
    expect(JSON.parse(file.body)).toMatchObject({ nbformat: 4 });
  });
});
