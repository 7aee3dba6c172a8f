import { WebSocket } from 'ws';
import { beforeAll, describe, expect, it } from 'vitest';
import type { TestServer, TestUser } from '../../../../test/harness.js';
import { processServer } from '../../../../test/fixtures.js';
import {
  installApp,
  outsiderOf,
  openSession,
  uninstallApp,
  type Installed,
} from '../../../../test/app-instance.js';
import { shellRunner } from './runner.js';

/** The shell template on the process runtime: a real pty in the job, reached through Open. */
describe('shell template', () => {
  let s: TestServer;
  let owner: TestUser;
  let outsider: TestUser;

  processServer((x) => ({ s, owner } = x));
  beforeAll(async () => (outsider = await outsiderOf(s)));

  /** Opens the terminal's WebSocket, types `line`, resolves with the output once it has `want`. */
  const type = (app: Installed, line: string, want: string, headers: Record<string, string>) =>
    new Promise<string>((resolve, reject) => {
      // From the terminal's own page, as a browser sends it.
      const origin = new URL(app.url!).origin;
      const ws = new WebSocket(`${app.url!.replace('http', 'ws')}pty`, {
        headers: { origin, ...headers },
      });
      let seen = '';
      const timer = setTimeout(() => {
        ws.close();
        reject(new Error(`no "${want}" in: ${seen}`));
      }, 15_000);
      ws.on('open', () => ws.send(`${line}\r`));
      ws.on('message', (d) => {
        seen += String(d);
        if (!seen.includes(want)) return;
        clearTimeout(timer);
        ws.close();
        resolve(seen);
      });
      ws.on('unexpected-response', (_q, res) => {
        clearTimeout(timer);
        reject(new Error(`HTTP ${res.statusCode}`));
      });
      ws.on('error', reject);
    });

  it('installs, opens with a session only, runs a typed command in the persistent home, uninstalls', async () => {
    const app = await installApp(s, owner, 'shell', 'term');
    expect(app.url).toBe(`http://${app.jobIds[0]}.jobs.localhost:${new URL(s.url).port}/`);
    expect(app.outputs.app_url.external_url.base_path).toBe('/');

    const session = await openSession(s, app.url!, owner);
    const page = await fetch(app.url!, { headers: session });
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('xterm.js');
    const xterm = await fetch(`${app.url}xterm.js`, { headers: session });
    expect(xterm.status).toBe(200);
    // Without a session, and signed in to another organization: the ingress answers as to no one.
    expect((await fetch(app.url!)).status).toBe(401);
    expect((await fetch(app.url!, { headers: outsider.headers })).status).toBe(404);
    await expect(type(app, 'echo no', 'no', {})).rejects.toThrow('HTTP 401');
    await expect(type(app, 'echo no', 'no', outsider.headers)).rejects.toThrow('HTTP 404');

    // $((6*7)) is expanded by the shell: the echoed input alone does not contain hi-42.
    await type(app, 'echo hi-$((6*7))', 'hi-42', session);
    // The file is written before tty prints what the test waits for.
    const out = await type(app, 'echo made > kept.txt; pwd; tty', '/dev/pts/', session);
    expect(out).toContain('/var/storage');

    // Terminal activity is what counts for idle shutdown.
    const before = Date.now();
    // A reconnecting page gets the recent output first: wait for this command's own.
    await type(app, 'echo mark-$((2+3))', 'mark-5', session);
    const probe = (_role: string, path: string) =>
      fetch(`${app.url}${path.slice(1)}`, { headers: session });
    const at = await shellRunner.lastActivity!(probe, {} as never);
    expect(at!.getTime()).toBeGreaterThanOrEqual(before - 1000);

    await uninstallApp(s, owner, app);
    // The file is in the instance's home in the project's storage, which outlives the instance.
    const file = await s.app.inject({
      url: '/api/v1/storage/acme/vision/.apps/shell/term/kept.txt?op=OPEN',
      headers: owner.headers,
    });
    expect(file.statusCode).toBe(200);
    expect(file.body).toBe('made\n');
  });

  it('lets anyone type in the terminal of a no_auth instance', async () => {
    const app = await installApp(s, owner, 'shell', 'open', {
      networking: { ingress_http: { auth: { type: 'no_auth' } } },
    });
    expect((await fetch(app.url!)).status).toBe(200);
    await type(app, 'echo open-$((1+1))', 'open-2', {});
    await uninstallApp(s, owner, app);
  });
});
