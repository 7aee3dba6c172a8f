import { WebSocket } from 'ws';
import { describe, expect, it } from 'vitest';
import type { TestServer, TestUser } from '../../../../test/harness.js';
import { call, processServer } from '../../../../test/fixtures.js';
import { eventually, runPlan } from '../../../../test/app-plan.js';
import { shellRunner } from './runner.js';

/** The shell template on the process runtime: a real pty in the job, reached through the ingress. */
describe('shell template', () => {
  let s: TestServer;
  let owner: TestUser;

  processServer((x) => ({ s, owner } = x));

  /** Opens the terminal's WebSocket, types `line`, resolves with the output once it has `want`. */
  const type = (id: string, line: string, want: string, who: TestUser | null = owner) =>
    new Promise<string>((resolve, reject) => {
      const url = `${s.url.replace('http', 'ws')}/ingress/${id}/pty`;
      const ws = new WebSocket(url, who ? { headers: who.headers } : {});
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

  it('runs a command typed in the browser terminal, in the persistent home', async () => {
    const { plan, jobs } = await runPlan(s, owner, shellRunner, {}, 'term');
    expect(plan.health).toEqual({ role: 'main', path: '/' });
    const id = jobs.main;
    const page = await eventually(async () => {
      const r = await fetch(`${s.url}/ingress/${id}/`, { headers: owner.headers });
      if (r.status !== 200) throw new Error(`page: ${r.status}`);
      return r.text();
    });
    expect(page).toContain('xterm.js');
    const xterm = await fetch(`${s.url}/ingress/${id}/xterm.js`, { headers: owner.headers });
    expect(xterm.status).toBe(200);

    // $((6*7)) is expanded by the shell: the echoed input alone does not contain hi-42.
    await type(id, 'echo hi-$((6*7))', 'hi-42');
    // The file is written before tty prints what the test waits for.
    const out = await type(id, 'echo made > kept.txt; pwd; tty', '/dev/pts/');
    expect(out).toContain('/var/storage');

    // The file is in the instance's home in the project's storage, which outlives the job.
    const file = await s.app.inject({
      url: '/api/v1/storage/acme/vision/.apps/shell/term/kept.txt?op=OPEN',
      headers: owner.headers,
    });
    expect(file.statusCode).toBe(200);
    expect(file.body).toBe('made\n');

    // Terminal activity is what counts for idle shutdown.
    const before = Date.now();
    // A reconnecting page gets the recent output first: wait for this command's own.
    await type(id, 'echo mark-$((2+3))', 'mark-5');
    const probe = (_role: string, path: string) =>
      fetch(`${s.url}/ingress/${id}${path}`, { headers: owner.headers });
    const at = await shellRunner.lastActivity!(probe, {} as never);
    expect(at!.getTime()).toBeGreaterThanOrEqual(before - 1000);
    await call(s, 'DELETE', `/api/v1/jobs/${id}`, owner);
  });

  it('refuses the terminal without a session unless the instance is no_auth', async () => {
    const { jobs } = await runPlan(s, owner, shellRunner, {}, 'closed');
    await eventually(async () => {
      const r = await fetch(`${s.url}/ingress/${jobs.main}/`, { headers: owner.headers });
      if (r.status !== 200) throw new Error(String(r.status));
    });
    expect((await fetch(`${s.url}/ingress/${jobs.main}/`)).status).toBe(401);
    await expect(type(jobs.main, 'echo no', 'no', null)).rejects.toThrow('HTTP 401');
    // Signed in but not a member of the project: the ingress answers as to no one.
    const stranger = await s.user();
    const denied = await fetch(`${s.url}/ingress/${jobs.main}/`, { headers: stranger.headers });
    expect(denied.status).toBe(401);
    await call(s, 'DELETE', `/api/v1/jobs/${jobs.main}`, owner);

    const open = await runPlan(
      s,
      owner,
      shellRunner,
      { networking: { ingress_http: { auth: { type: 'no_auth' } } } },
      'open',
    );
    await eventually(() => type(open.jobs.main, 'echo open-$((1+1))', 'open-2', null));
    await call(s, 'DELETE', `/api/v1/jobs/${open.jobs.main}`, owner);
  });
});
