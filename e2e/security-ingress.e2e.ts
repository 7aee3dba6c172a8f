import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { linkFromOutbox, type RunningServer } from './support/server.js';
import { useJourney } from './support/journey.js';
import { ADMIN, signIn, signUpElsewhere, tokenFor, type NewAccount } from './support/session.js';
import { send } from './support/session.js';

/** The attacker: a writer of an organization of her own. */
const MALLORY: NewAccount = {
  name: 'Mallory Writer',
  username: 'mallory',
  email: 'mallory@example.test',
  password: 'mallory-password-1',
};
const VISION = 'org=acme&cluster=default&project=vision';
const V1 = '/apis/apps/v1/cluster/default/org/acme/project/vision';

const api = (server: RunningServer, token: string, method: string, path: string, body?: unknown) =>
  send(server, token, method, path, body) as Promise<Record<string, any>>; // eslint-disable-line @typescript-eslint/no-explicit-any

/**
 * The page of the attacker's job: it looks for the console's tokens (storage, cookies, the API
 * with the visitor's credentials, the tab that opened it) and drives the visitor's terminal
 * through a WebSocket, then writes down what it got.
 */
const evilPage = (consoleUrl: string, terminal: string) => `<!doctype html>
<title>harmless</title><pre id="out">running</pre>
<script>
(async () => {
  const out = {
    origin: location.origin,
    cookie: document.cookie,
    storage: [...Object.keys(localStorage), ...Object.keys(sessionStorage)],
    opener: window.opener === null,
  };
  try {
    const r = await fetch(${JSON.stringify(consoleUrl)} + '/api/v1/orgs', { credentials: 'include' });
    out.api = 'read ' + r.status + ' ' + (await r.text()).slice(0, 40);
  } catch (e) {
    out.api = 'blocked';
  }
  out.terminal = await new Promise((done) => {
    const ws = new WebSocket(${JSON.stringify(terminal)});
    ws.onopen = () => { ws.send('echo pwned > /var/storage/pwned\\r'); done('opened'); };
    ws.onerror = () => done('refused');
  });
  document.getElementById('out').textContent = JSON.stringify(out);
})();
</script>`;

/**
 * A tenant's job page against a manager who opens it from the console: the page lives on an
 * origin of its own, finds none of the console's tokens, cannot read the API as its visitor,
 * and its WebSocket to the visitor's open terminal (another job's host) is refused.
 */
describe('ingress in the browser, as an attacker', () => {
  let server: RunningServer;
  let page: Page;
  let admin: string;
  let mallory: string;
  let terminalUrl = '';

  useJourney('security-ingress', (j) => ({ server, page, token: admin } = j), {
    env: () => ({ ORRERY_RUNTIME: 'process' }),
    prepare: async ({ server: s, browser }) => {
      await signUpElsewhere(browser, s, MALLORY);
      const verify = await browser.newPage();
      await verify.goto(linkFromOutbox(s.dataDir, MALLORY.email, '/oidc/verify'));
      await verify.close();
      mallory = await tokenFor(s, MALLORY.email);
      await api(s, mallory, 'PUT', `/api/v1/users/${MALLORY.username}/profile`, {
        terms_accepted: true,
      });
      await api(s, mallory, 'POST', '/api/v1/orgs', { name: 'beta' });
      await api(s, mallory, 'POST', '/api/v1/projects', {
        name: 'web',
        org_name: 'beta',
        cluster_name: 'default',
      });
    },
  });

  it("opens the manager's own terminal from the console, on the terminal's own host", async () => {
    const installed = await api(server, admin, 'POST', `${V1}/instances`, {
      template_name: 'shell',
      display_name: 'ops-terminal',
      input: { preset: { name: 'cpu-small' } },
    });
    await page.goto(server.url);
    await signIn(page, ADMIN.email, ADMIN.password);
    await page.getByRole('banner').waitFor();
    await page.goto(`${server.url}/apps/instances/${installed.id}?${VISION}`);
    await page.getByText('healthy', { exact: true }).first().waitFor({ timeout: 60_000 });
    const [tab] = await Promise.all([
      page.context().waitForEvent('page'),
      page.getByRole('button', { name: 'Open', exact: true }).click(),
    ]);
    await tab.locator('.xterm').waitFor();
    terminalUrl = tab.url();
    expect(new URL(terminalUrl).hostname).toMatch(/^job-[0-9a-f-]+\.jobs\.localhost$/);
    await tab.close();
  });

  it('keeps the console and the terminal out of reach of a job page the manager opens', async () => {
    const consoleOrigin = new URL(server.url).origin;
    const terminal = `${terminalUrl.replace(/^http/, 'ws')}pty`;
    const page64 = Buffer.from(evilPage(consoleOrigin, terminal)).toString('base64');
    const serve = `${process.execPath} -e "require('http').createServer((q,s)=>{s.setHeader('content-type','text/html');s.end(Buffer.from(process.env.PAGE,'base64'))}).listen(process.env.PORT)"`;
    const job = await api(server, mallory, 'POST', '/api/v1/jobs?from_preset', {
      cluster_name: 'default',
      org_name: 'beta',
      project_name: 'web',
      preset_name: 'cpu-small',
      image: 'busybox',
      name: 'dashboard',
      command: serve,
      env: { PAGE: page64 },
      http: { port: 8080, requires_auth: true },
    });
    // Mallory shares her job's page with the manager, who opens it from the console.
    await api(server, mallory, 'POST', `/api/v1/users/${ADMIN.username}/permissions`, [
      { uri: job.uri, action: 'read' },
    ]);
    await page.goto(`${server.url}/jobs/${job.id}?${VISION}`);
    await page.getByText('running', { exact: true }).first().waitFor({ timeout: 60_000 });
    const [tab] = await Promise.all([
      page.context().waitForEvent('page'),
      page.getByRole('button', { name: 'Open', exact: true }).click(),
    ]);
    await tab.locator('#out', { hasText: '{' }).waitFor({ timeout: 60_000 });
    const got = JSON.parse((await tab.locator('#out').textContent())!) as Record<string, unknown>;
    expect(got.origin).toBe(`http://${job.id}.jobs.localhost:${new URL(server.url).port}`);
    expect(got.origin).not.toBe(consoleOrigin);
    expect(got).toMatchObject({ cookie: '', storage: [], opener: true, api: 'blocked' });
    expect(got.terminal).toBe('refused');
    // The console's tokens are where they were: in the console's origin only.
    expect(await page.evaluate(() => location.origin)).toBe(consoleOrigin);
    await tab.close();
  });
});
