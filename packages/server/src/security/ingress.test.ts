import { and, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { emailTokens } from '../db/schema.js';
import { type TestServer, type TestUser } from '../test/harness.js';
import { call, projectMember, submitJob, leaveProject, processServer } from '../test/fixtures.js';
import { installApp } from '../test/app-instance.js';
import { injectAt, openJob, ticketFor, upgrade, whenServing } from '../test/ingress.js';

const NODE = process.execPath;
/** A job's page that answers with what it was asked and which credentials reached it. */
const PAGE = `${NODE} -e "require('http').createServer((q,s)=>s.end(process.env.WHO+' '+q.method+' '+q.url+' cookie='+(q.headers.cookie||'')+(q.headers.authorization?' auth='+q.headers.authorization:''))).listen(process.env.PORT,'0.0.0.0')"`;

/**
 * The ingress as an attacker meets it: a tenant's job page that would read the console's
 * tokens, a ticket or cookie of one job replayed elsewhere, a page of another origin driving a
 * socket, a project reader at a writer's terminal, names probed across organizations.
 */
describe('ingress', () => {
  let s: TestServer;
  let owner: TestUser;
  let reader: TestUser;
  let outsider: TestUser;
  let a: string;
  let b: string;
  let urlA: string;
  let urlB: string;
  let urlOpen: string;

  const jobOf = async (id: string) => (await call(s, 'GET', `/api/v1/jobs/${id}`, owner)).body;

  processServer((x) => ({ s, owner } = x));
  beforeAll(async () => {
    reader = await projectMember(s, 'reader');
    outsider = await s.user();
    expect((await call(s, 'POST', '/api/v1/orgs', outsider, { name: 'rival' })).status).toBe(201);
    const http = { port: 8080, requires_auth: true };
    a = await submitJob(s, owner, PAGE, { name: 'page-a', http, env: { WHO: 'a' } });
    b = await submitJob(s, owner, PAGE, { http, env: { WHO: 'b' } });
    urlA = (await jobOf(a)).http_url;
    urlB = (await jobOf(b)).http_url;
    const open = await submitJob(s, owner, PAGE, {
      http: { port: 8080, requires_auth: false },
      env: { WHO: 'open' },
    });
    urlOpen = (await jobOf(open)).http_url;
    for (const [id, url] of [
      [a, urlA],
      [b, urlB],
      [open, urlOpen],
    ] as const) {
      const served = await whenServing(() => injectAt(s, url, { headers: owner.headers }));
      expect(served.statusCode, `${id}: ${served.body}`).toBe(200);
    }
  });

  it("serves a job's page on an origin of its own, and its ticket and cookie open that job alone", async () => {
    const console = new URL(s.url);
    expect(new URL(urlA).origin).toBe(`http://${a}.jobs.localhost:${console.port}`);
    expect(new URL(urlA).origin).not.toBe(console.origin);
    expect(new URL(urlB).origin).not.toBe(new URL(urlA).origin);

    // On the console's origin a browser gets no job content: neither with the token in the
    // address nor with a cookie, and an API client's answer is sandboxed.
    for (const headers of [{}, { cookie: `orrery_ingress=x; orrery_job_token=${owner.token}` }]) {
      const r = await s.app.inject({ url: `/ingress/${a}/?orrery_token=${owner.token}`, headers });
      expect(r.statusCode).toBe(401);
      expect(r.body).not.toContain('a GET');
    }
    const asPage = await s.app.inject({
      url: `/ingress/${a}/`,
      headers: { ...owner.headers, origin: console.origin },
    });
    expect(asPage.statusCode).toBe(403);
    const api = await s.app.inject({ url: `/ingress/${a}/x`, headers: owner.headers });
    expect(api.body).toMatch(/^a GET \/x/);
    expect(api.headers['content-security-policy']).toBe('sandbox');

    // The console's Open: a ticket in the address, never the user's token.
    const t = await ticketFor(s, owner, a);
    expect(t.status).toBe(200);
    expect(new URL(t.body.url).origin).toBe(new URL(urlA).origin);
    expect(t.body.url).not.toContain(owner.token);
    // A's ticket at B's host opens nothing, and does not spend it.
    const elsewhere = await injectAt(s, t.body.url.replace(a, b));
    expect(elsewhere.statusCode).toBe(401);
    const opened = await injectAt(s, `${t.body.url}&x=1`);
    expect(opened.statusCode).toBe(303);
    expect(opened.headers.location).toBe('/?x=1');
    const setCookie = String(opened.headers['set-cookie']);
    expect(setCookie).toMatch(/HttpOnly/);
    expect(setCookie).toMatch(/SameSite=Lax/);
    expect(setCookie).not.toMatch(/Domain=/i);
    const cookie = setCookie.split(';')[0]!;
    expect(cookie).not.toContain(owner.token);
    // Used once.
    expect((await injectAt(s, t.body.url)).statusCode).toBe(401);

    // The cookie opens A's host, and the job never sees it.
    const page = await injectAt(s, urlA, { headers: { cookie: `${cookie}; theirs=1` } });
    expect(page.statusCode).toBe(200);
    expect(page.body).toBe('a GET / cookie=theirs=1');
    // Not B's host, not the API (as a cookie or as a Bearer token), not the console's ingress path.
    expect((await injectAt(s, urlB, { headers: { cookie } })).statusCode).toBe(401);
    const value = cookie.slice(cookie.indexOf('=') + 1);
    expect(
      (await call(s, 'GET', `/api/v1/jobs/${a}`, { headers: { cookie } } as never)).status,
    ).toBe(401);
    const asBearer = { headers: { authorization: `Bearer ${value}` } } as never;
    expect((await call(s, 'GET', `/api/v1/jobs/${a}`, asBearer)).status).toBe(401);
    expect((await s.app.inject({ url: `/ingress/${a}/`, headers: { cookie } })).statusCode).toBe(
      401,
    );

    // An open job takes an Authorization of its own, never the user's Orrery token.
    const own = await injectAt(s, urlOpen, { headers: { authorization: 'Bearer app-key' } });
    expect(own.body).toBe('open GET / cookie= auth=Bearer app-key');
    expect((await injectAt(s, urlOpen, { headers: owner.headers })).body).toBe(
      'open GET / cookie=',
    );

    // A ticket that has outlived its minute opens nothing.
    const late = await ticketFor(s, owner, a);
    await s.ctx.db
      .update(emailTokens)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(and(eq(emailTokens.kind, 'ingress'), eq(emailTokens.userId, owner.id)));
    expect((await injectAt(s, late.body.url)).statusCode).toBe(401);

    // The cookie is checked against the user's permission on every request: a member removed
    // from the project is out at once.
    const writer = await projectMember(s, 'writer');
    const { cookie: theirs } = await openJob(s, writer, a);
    expect((await injectAt(s, urlA, { headers: { cookie: theirs } })).statusCode).toBe(200);
    await leaveProject(s, writer);
    expect((await injectAt(s, urlA, { headers: { cookie: theirs } })).statusCode).toBe(404);
  });

  it("refuses a WebSocket or a form post from another origin, to a job's host and to the console's sockets", async () => {
    const { cookie } = await openJob(s, owner, a);
    const own = new URL(urlA).origin;
    const port = new URL(s.url).port;
    const sibling = `http://${b}.jobs.localhost:${port}`;
    for (const origin of [sibling, s.url, `http://127.0.0.1:1`, 'null']) {
      const r = await upgrade(`${urlA}socket`, { cookie, origin });
      expect(r, origin).toMatchObject({ refused: 403 });
      const post = await injectAt(s, urlA, { method: 'POST', headers: { cookie, origin } });
      expect(post.statusCode, origin).toBe(403);
    }
    // Without an Origin the cookie is no credential for a socket; a Bearer header is.
    expect(await upgrade(`${urlA}socket`, { cookie })).toMatchObject({ refused: 403 });
    // Its own page may (the job's port is no WebSocket server: the relay then closes).
    expect(await upgrade(`${urlA}socket`, { cookie, origin: own })).toEqual({ opened: true });
    expect(await upgrade(`${urlA}socket`, owner.headers)).toEqual({ opened: true });
    const post = await injectAt(s, `${urlA}form`, {
      method: 'POST',
      headers: { cookie, origin: own },
    });
    expect(post.body).toMatch(/^a POST \/form/);

    // The console's own sockets: its origin or none, never another page's.
    const logs = `${s.url}/api/v1/jobs/${a}/log_ws`;
    const bearer = [`bearer.${owner.token}`, 'logs.apolo.us'];
    for (const origin of [own, `http://127.0.0.1:1`, `http://localhost:${port}`]) {
      expect(await upgrade(logs, { origin }, bearer), origin).toMatchObject({ refused: 403 });
    }
    expect(await upgrade(logs, { origin: s.url }, bearer)).toEqual({ opened: true });
    expect(await upgrade(logs, {}, bearer)).toEqual({ opened: true });
  });

  it("keeps a project reader out of a writer's terminal, and out of exec and attach", async () => {
    const shell = await installApp(s, owner, 'shell', 'term');
    const [job] = shell.jobIds;
    // The console's Open is refused with the reason; the writer's is not.
    const refused = await ticketFor(s, reader, job!);
    expect(refused.status).toBe(403);
    expect(refused.body.message).toBe('Opening this terminal needs write access to the job');
    expect((await ticketFor(s, owner, job!)).status).toBe(200);
    // At the terminal's host, with the reader's own token: the page and the pty's socket.
    const page = await injectAt(s, shell.url!, { headers: reader.headers });
    expect(page.statusCode).toBe(403);
    expect(page.body).toBe('Opening this terminal needs write access to the job');
    expect(await upgrade(`${shell.url}pty`, reader.headers)).toMatchObject({ refused: 403 });
    expect(await upgrade(`${shell.url}pty`, owner.headers)).toEqual({ opened: true });
    // The same reader reads a plain job's page (docs/apps.md: only interactive apps need write).
    expect((await injectAt(s, urlA, { headers: reader.headers })).statusCode).toBe(200);
    // exec and attach with stdin, over their sockets.
    for (const route of ['exec?cmd=sh&stdin=1&tty=1', 'attach?stdin=1&stdout=1']) {
      const r = await upgrade(`${s.url}/api/v1/jobs/${job}/${route}`, reader.headers, [
        'v2.channels.neu.ro',
      ]);
      expect(r, route).toMatchObject({ refused: 403 });
    }
  });

  it('answers a name of another organization as it answers a name that does not exist', async () => {
    const port = new URL(s.url).port;
    const named = (await jobOf(a)).http_url_named as string;
    expect(named).toBe(`http://page-a--vision--acme.jobs.localhost:${port}/`);
    const missing = named.replace('page-a--', 'no-such--');
    for (const who of [outsider.headers, {}]) {
      const there = await injectAt(s, named, { headers: who });
      const absent = await injectAt(s, missing, { headers: who });
      expect([there.statusCode, there.body]).toEqual([404, 'No such job, or it serves no HTTP']);
      expect([absent.statusCode, absent.body]).toEqual([there.statusCode, there.body]);
    }
    expect((await injectAt(s, named, { headers: owner.headers })).body).toMatch(/^a GET \//);
  });

  it('sends a browser without the host’s cookie through the console’s sign-in, by id and by name, then serves it', async () => {
    const named = (await jobOf(a)).http_url_named as string;
    const nameKey = new URL(named).hostname.split('.')[0]!;
    const html = { accept: 'text/html,application/xhtml+xml' };
    const toConsole = (key: string, path?: string) => {
      const to = new URL('/open-job', s.config.publicUrl);
      to.searchParams.set('key', key);
      if (path) to.searchParams.set('path', path);
      return to.toString();
    };
    // A page opened by id or by name, a name no job has, a navigation that says so: all go to
    // the console alike, so a redirect tells an anonymous visitor nothing about names.
    const missing = named.replace('page-a--', 'no-such--');
    for (const [url, headers, key] of [
      [urlA, html, a],
      [`${named}x?y=1`, { 'sec-fetch-mode': 'navigate' }, nameKey],
      [missing, html, new URL(missing).hostname.split('.')[0]!],
    ] as const) {
      const r = await injectAt(s, url, { headers });
      expect(r.statusCode, url).toBe(303);
      const path = new URL(url).pathname + new URL(url).search;
      expect(r.headers.location).toBe(toConsole(key, path === '/' ? undefined : path));
    }
    // A script's request, an API client and an open job are answered as before.
    expect((await injectAt(s, urlA, { headers: { 'sec-fetch-mode': 'cors' } })).statusCode).toBe(
      401,
    );
    expect((await injectAt(s, urlA)).statusCode).toBe(401);
    expect((await injectAt(s, urlOpen, { headers: html })).body).toBe('open GET / cookie=');

    // The console, signed in, asks for a ticket for the name and the path: the page by name.
    const t = await call(
      s,
      'POST',
      `/api/v1/jobs/${nameKey}/ingress-ticket?path=${encodeURIComponent('/x?y=1')}`,
      owner,
    );
    expect(t.status, JSON.stringify(t.body)).toBe(200);
    expect(new URL(t.body.url).origin).toBe(new URL(named).origin);
    const opened = await injectAt(s, t.body.url, { headers: html });
    expect(opened.statusCode).toBe(303);
    expect(opened.headers.location).toBe('/x?y=1');
    const cookie = String(opened.headers['set-cookie']).split(';')[0]!;
    const page = await injectAt(s, `${named}x?y=1`, { headers: { ...html, cookie } });
    expect(page.body).toBe('a GET /x?y=1 cookie=');
    // That cookie is the name's host's alone: by id the browser is sent to sign in there too.
    expect((await injectAt(s, urlA, { headers: { ...html, cookie } })).statusCode).toBe(303);

    // A path off the job's host lands on its root; a name the caller may not read is not found.
    const away = await call(
      s,
      'POST',
      `/api/v1/jobs/${nameKey}/ingress-ticket?path=${encodeURIComponent('//evil.example/x')}`,
      owner,
    );
    expect(new URL(away.body.url).origin).toBe(new URL(named).origin);
    expect(new URL(away.body.url).pathname).toBe('/');
    const theirs = await call(s, 'POST', `/api/v1/jobs/${nameKey}/ingress-ticket`, outsider);
    expect(theirs.status).toBe(404);
    const none = await call(s, 'POST', `/api/v1/jobs/no-such--vision--acme/ingress-ticket`, owner);
    expect(none.status).toBe(404);
  });
});
