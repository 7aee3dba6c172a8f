import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Browser, formAction, pkce } from './browser.js';

export const CLIENT_ID = 'orrery-console';

/**
 * What the flows need of a test server (src/test/harness.ts). Structural, so these helpers do
 * not pull the harness into the production build, which excludes it.
 */
export interface TestServer {
  url: string;
  config: { dataDir: string };
}

export interface Authorization {
  browser: Browser;
  verifier: string;
  redirectUri: string;
  /** The response of the first page of the interaction (sign-in or sign-up form). */
  page: Response;
  html: string;
}

/** Starts an authorization-code + PKCE request in a fresh browser, up to the first form. */
export async function startAuthorization(
  server: TestServer,
  opts: {
    redirectUri?: string;
    scope?: string;
    screen?: string;
    browser?: Browser;
    /** More parameters of the authorization request (`invite`, `invite_proof`). */
    extra?: Record<string, string>;
  } = {},
): Promise<Authorization> {
  const browser = opts.browser ?? new Browser(server.url);
  const { verifier, challenge } = pkce();
  const redirectUri = opts.redirectUri ?? `${server.url}/auth/callback`;
  const query = new URLSearchParams({
    client_id: CLIENT_ID,
    response_type: 'code',
    redirect_uri: redirectUri,
    scope: opts.scope ?? 'openid profile email offline_access',
    code_challenge: challenge,
    code_challenge_method: 'S256',
    state: 'st4te',
    ...(opts.screen ? { screen: opts.screen } : {}),
    ...opts.extra,
  });
  const { res: page } = await browser.follow(await browser.get(`/oidc/auth?${query}`));
  return { browser, verifier, redirectUri, page, html: await page.text() };
}

/** Submits a form of the current page and follows on; returns the code when the flow ends. */
export async function submit(a: Authorization, fields: Record<string, string>) {
  const res = await a.browser.post(formAction(a.html), fields);
  const { res: last, leftTo } = await a.browser.follow(res);
  return { res: last, leftTo, code: leftTo?.searchParams.get('code') ?? null };
}

export async function exchangeCode(server: TestServer, a: Authorization, code: string) {
  const res = await fetch(`${server.url}/oidc/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'authorization_code',
      code,
      code_verifier: a.verifier,
      client_id: CLIENT_ID,
      redirect_uri: a.redirectUri,
    }),
  });
  return { status: res.status, body: (await res.json()) as Record<string, string | number> };
}

export async function refresh(server: TestServer, refreshToken: string) {
  const res = await fetch(`${server.url}/oidc/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'refresh_token',
      refresh_token: refreshToken,
      client_id: CLIENT_ID,
    }),
  });
  return { status: res.status, body: (await res.json()) as Record<string, string | number> };
}

/** Signs in through the pages and exchanges the code: the whole flow a client goes through. */
export async function signIn(
  server: TestServer,
  email: string,
  password: string,
  opts: Parameters<typeof startAuthorization>[1] = {},
) {
  const a = await startAuthorization(server, opts);
  const { code } = await submit(a, { email, password });
  if (!code) throw new Error('sign-in did not return a code');
  return { ...(await exchangeCode(server, a, code)), authorization: a };
}

/** The mails written to the outbox for this address, oldest first. */
export function mailsTo(server: TestServer, to: string): string[] {
  const dir = join(server.config.dataDir, 'outbox');
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((f) => f.endsWith('.eml') && f.includes(to.replace(/[^a-zA-Z0-9@._-]/g, '_')))
    .sort()
    .map((f) => readFileSync(join(dir, f), 'utf8'));
}
