import type { Browser, Page } from 'playwright-core';
import { callControl } from '../../packages/server/src/control.js';
import type { RunningServer } from './server.js';

/** The administrator every server of the suite starts with (ORRERY_ADMIN_PASSWORD in server.ts). */
export const ADMIN = {
  email: 'admin@orrery.local',
  password: 'admin-password-1',
  username: 'admin',
};

/** From the sign-in page ("Welcome to Orrery"): the provider's form, filled and sent. */
export async function signIn(page: Page, email: string, password: string) {
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

export interface NewAccount {
  name: string;
  username: string;
  email: string;
  password: string;
}

/** Waits until the provider hands the page back to the console (off its /oidc and /auth pages). */
export const backInConsole = (page: Page, server: RunningServer) =>
  page.waitForURL(
    (u) =>
      u.origin === server.url && !u.pathname.startsWith('/oidc') && !u.pathname.startsWith('/auth'),
  );

/**
 * Creates an account through the provider's sign-up page in a context of its own, so the caller's
 * session stays as it was; the e-mail stays unverified, enough for the user to exist by name.
 */
export async function signUpElsewhere(browser: Browser, server: RunningServer, who: NewAccount) {
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    await page.goto(server.url);
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.getByLabel('Name', { exact: true }).fill(who.name);
    await page.getByLabel('Username').fill(who.username);
    await page.getByLabel('Email').fill(who.email);
    await page.getByLabel('Password').fill(who.password);
    await page.getByRole('button', { name: 'Create account' }).click();
    await backInConsole(page, server);
  } finally {
    await context.close();
  }
}

/**
 * A bearer token for the user with `email`, for an hour, from the server's control socket: what
 * `orrery token create` asks it (people.e2e.ts runs the command itself), without the second or
 * two a new node process takes on a loaded machine.
 */
export async function tokenFor(server: RunningServer, email = ADMIN.email): Promise<string> {
  const answer = (await callControl(server.dataDir, 'token', { email, ttlSeconds: 3600 })) as {
    token: string;
  } | null;
  if (!answer) throw new Error(`no server answers on the control socket of ${server.dataDir}`);
  return answer.token;
}

/**
 * Through the API as the administrator: organization `org`, project `project` on the default
 * cluster, and the terms accepted, so the browser lands in the main layout. Returns the token.
 */
export async function adminProject(server: RunningServer, org: string, project: string) {
  const token = await tokenFor(server);
  const api = async (path: string, method: string, body: object, expected: number) => {
    const res = await fetch(`${server.url}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    if (res.status !== expected)
      throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
  };
  await api('/api/v1/orgs', 'POST', { name: org }, 201);
  await api(
    '/api/v1/projects',
    'POST',
    { name: project, org_name: org, cluster_name: 'default' },
    201,
  );
  await api(`/api/v1/users/${ADMIN.username}/profile`, 'PUT', { terms_accepted: true }, 200);
  return token;
}

/** A call of the API with a bearer token; anything but a success throws with the server's answer. */
export async function send(
  server: RunningServer,
  token: string,
  method: string,
  path: string,
  body?: unknown,
) {
  const res = await fetch(`${server.url}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      'content-type': typeof body === 'string' ? 'application/octet-stream' : 'application/json',
    },
    body: body === undefined || typeof body === 'string' ? body : JSON.stringify(body),
  });
  if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
  return res.status === 204 ? null : ((await res.json().catch(() => null)) as unknown);
}
