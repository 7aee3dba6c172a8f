import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Page, Response } from 'playwright-core';
import { watchErrors } from './support/browser.js';
import { useJourney } from './support/journey.js';
import { ADMIN, signIn } from './support/session.js';

/**
 * The attacker of the console's session, in Debian's Chromium against the real server: a page
 * of another origin (`evil.localhost`, which Chromium resolves to this machine) that the signed-in
 * user opens, and a script of the console's own origin reading its storage, as a job page served
 * there once did. Neither finds a token; the console cannot be framed; a reload or a new tab
 * still signs in from the provider's session, and signing out ends it and every token the
 * console held (docs/operations.md, "Console sessions").
 */
describe('the console session against a page of another origin', () => {
  let server: { url: string };
  let context: BrowserContext;
  let page: Page;
  let errors: string[];
  let evil: Server;
  let evilUrl = '';
  /** Every token the provider handed to the console, as the attacker hopes to find them. */
  const issued: string[] = [];
  let lastRefresh = '';

  // A white-label host on another site than the public URL (127.0.0.1): its console's frame
  // gets no cookie of the provider, so it signs in again at the top level.
  useJourney('security-console', (j) => ({ server, context, page, errors } = j), {
    env: () => ({
      ORRERY_WHITE_LABELS: JSON.stringify({ 'partner.localhost': { title: 'Partner' } }),
    }),
  });

  beforeAll(async () => {
    evil = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end('<!doctype html><title>A page of another site</title><body></body>');
    });
    await new Promise<void>((r) => evil.listen(0, '127.0.0.1', r));
    evilUrl = `http://evil.localhost:${(evil.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise((r) => evil?.close(r)));

  const record = async (res: Response) => {
    if (!res.url().endsWith('/oidc/token') || res.request().method() !== 'POST') return;
    const body = (await res.json().catch(() => ({}))) as Record<string, string>;
    for (const name of ['access_token', 'refresh_token', 'id_token']) {
      if (body[name]) issued.push(body[name]);
    }
    if (body.refresh_token) lastRefresh = body.refresh_token;
  };

  /** Everything a script of the console's origin can read without the console's help. */
  const readableByScripts = (p: Page) =>
    p.evaluate(() => {
      const dump = (s: Storage) =>
        Array.from({ length: s.length }, (_, i) => `${s.key(i)}=${s.getItem(s.key(i)!)}`);
      return [...dump(localStorage), ...dump(sessionStorage), document.cookie].join('\n');
    });

  const signedIn = (p: Page) => p.getByRole('banner').waitFor();

  const attackerPage = async () => {
    const p = await context.newPage();
    await p.goto(evilUrl);
    return p;
  };

  it('finds no token: not in the console origin’s storage, not from /oidc/token with the user’s cookies', async () => {
    context.on('response', (res) => void record(res));
    await page.goto(server.url);
    await signIn(page, ADMIN.email, ADMIN.password);
    await signedIn(page);
    expect(issued.length).toBeGreaterThan(0);

    // A script of the console's origin (a job page served there once) reads its storage.
    const stored = await readableByScripts(page);
    for (const token of issued) expect(stored).not.toContain(token);

    // A page of another origin: its own storage is empty, and the provider answers it nothing
    // it may read, however it asks with the browser's cookies.
    const attacker = await attackerPage();
    const outcome = await attacker.evaluate(async (console) => {
      const tries: Record<string, string> = {};
      const attempt = async (name: string, url: string, init: RequestInit) => {
        try {
          const res = await fetch(url, { credentials: 'include', ...init });
          tries[name] = `read ${res.status}: ${await res.text()}`;
        } catch (e) {
          tries[name] = `refused: ${(e as Error).name}`;
        }
      };
      const form = { 'content-type': 'application/x-www-form-urlencoded' };
      await attempt('token', `${console}/oidc/token`, {
        method: 'POST',
        headers: form,
        body: 'grant_type=refresh_token&client_id=orrery-console&refresh_token=x',
      });
      // A preflighted call, as a script that sets its own headers makes it.
      await attempt('token-json', `${console}/oidc/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-steal': '1' },
        body: '{}',
      });
      await attempt('authorize', `${console}/oidc/auth?client_id=orrery-console&prompt=none`, {
        redirect: 'follow',
      });
      const own = [localStorage.length, sessionStorage.length, document.cookie.length];
      return { tries, own };
    }, server.url);
    expect(outcome.own).toEqual([0, 0, 0]);
    expect(outcome.tries).toEqual({
      token: 'refused: TypeError',
      'token-json': 'refused: TypeError',
      authorize: 'refused: TypeError',
    });
    await attacker.close();
    expect(errors).toEqual([]);
  });

  it('cannot frame the console, nor its sign-in callback page', async () => {
    const attacker = await attackerPage();
    await attacker.evaluate(
      (urls) =>
        Promise.all(
          urls.map(
            (src) =>
              new Promise((loaded) => {
                const frame = document.createElement('iframe');
                frame.src = src;
                frame.onload = loaded;
                document.body.append(frame);
              }),
          ),
        ),
      [`${server.url}/`, `${server.url}/auth/callback`],
    );
    const framed = attacker.frames().filter((f) => f !== attacker.mainFrame());
    expect(framed).toHaveLength(2);
    for (const frame of framed) {
      // A refused frame holds the browser's error page, never the console's document.
      expect(await frame.locator('#root').count()).toBe(0);
    }
    await attacker.close();
  });

  it('stays signed in after a reload and in a new tab, still with no token stored', async () => {
    await page.reload();
    await signedIn(page);
    const tab = await context.newPage();
    await tab.goto(`${server.url}/jobs`);
    await signedIn(tab);
    expect(new URL(tab.url()).pathname).toBe('/jobs');
    // The white-label host's console, opened and reloaded: signed in from the same session.
    const partner = await context.newPage();
    const partnerErrors = watchErrors(partner);
    const partnerUrl = server.url.replace('127.0.0.1', 'partner.localhost');
    for (const open of [() => partner.goto(`${partnerUrl}/jobs`), () => partner.reload()]) {
      await open();
      await signedIn(partner);
      await partner.waitForURL((u) => u.origin === partnerUrl && u.pathname === '/jobs');
    }
    for (const p of [page, tab, partner]) {
      const stored = await readableByScripts(p);
      for (const token of issued) expect(stored).not.toContain(token);
    }
    // What signs them in is the provider's session cookie, which no script reads.
    const cookie = (await context.cookies(server.url)).find((c) => c.name === '_session');
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Lax' });
    await tab.close();
    await partner.close();
    expect(errors).toEqual([]);
    expect(partnerErrors).toEqual([]);
  });

  it('signing out ends the session: a reload asks to sign in, and the refresh token it held is dead', async () => {
    expect(lastRefresh).not.toBe('');
    const held = lastRefresh;
    await page
      .getByRole('button', { name: /Administrator|admin/ })
      .last()
      .click();
    await page.getByRole('menuitem', { name: 'Log out' }).click();
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    expect((await context.cookies(server.url)).map((c) => c.name)).not.toContain('_session');
    await page.reload();
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    expect(await page.getByRole('banner').count()).toBe(0);
    // The white-label host asks the provider at the top level and lands on its sign-in page.
    const partner = await context.newPage();
    const partnerErrors = watchErrors(partner);
    const partnerUrl = server.url.replace('127.0.0.1', 'partner.localhost');
    await partner.goto(`${partnerUrl}/jobs`);
    await partner.getByRole('button', { name: 'Sign in' }).waitFor();
    // The sign-in page, no error, remembering the page asked for.
    expect(partner.url()).toBe(`${partnerUrl}/auth`);
    expect(
      await partner.evaluate(() => (history.state as { usr?: { returnTo?: string } }).usr),
    ).toEqual({ returnTo: '/jobs' });
    expect(await partner.getByRole('banner').count()).toBe(0);
    expect(partnerErrors).toEqual([]);
    await partner.close();

    // The attacker who had copied the console's refresh token before the sign-out.
    const res = await fetch(`${server.url}/oidc/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'refresh_token',
        client_id: 'orrery-console',
        refresh_token: held,
      }),
    });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: string }).error).toBe('invalid_grant');
    expect(errors).toEqual([]);
  });
});
