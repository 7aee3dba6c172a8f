import { describe, expect, it } from 'vitest';
import { request } from 'node:http';
import { eq } from 'drizzle-orm';
import { type TestServer, type TestUser } from '../test/harness.js';
import { bearer, call, joinOrg, tenantServer } from '../test/fixtures.js';
import { formAction } from '../auth/oidc/testing/browser.js';
import {
  mailsTo,
  signIn,
  startAuthorization,
  submit,
  type Authorization,
} from '../auth/oidc/testing/flow.js';
import { users } from '../db/schema.js';
import { routeAccess } from '../http/access.js';
import { hashPassword } from '../auth/passwords.js';
import { issueEmailToken } from '../modules/accounts/store.js';
import { createToken } from '../modules/tokens/store.js';
import { projectId } from '../modules/projects/store.js';
import { passedConfig } from '../modules/jobs/owner-token.js';
import type { JobRow } from '../modules/jobs/store.js';

/**
 * A hostile holder of a project token, and a hostile client of the sign-in pages. The server
 * believes X-Forwarded-For from 127.0.0.1 only (the "proxy"); 127.0.0.2 is any other peer.
 */
const PER_ADDRESS = 5;
let s: TestServer;
let owner: TestUser;
tenantServer(
  (x) => ({ s, owner } = x),
  {
    ORRERY_TRUSTED_PROXIES: '127.0.0.1',
    ORRERY_SIGNIN_FAILURES_PER_ADDRESS: String(PER_ADDRESS),
  },
  { listen: true },
);

const TOKENS = '/api/v1/clusters/default/orgs/acme/projects/vision/tokens';
const inDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString();

async function projectToken(name: string, role: 'reader' | 'writer' | 'manager') {
  const r = await call(s, 'POST', TOKENS, owner, { name, role, expires_at: inDays(30) });
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  return r.body as { id: string; token: string; username: string };
}

const emailOf = async (username: string) =>
  (await s.ctx.db.select().from(users).where(eq(users.username, username)))[0];

describe('a project token stays in its project', () => {
  it("a writer's project token cannot create an organization, accept an invitation or pay", async () => {
    const { token } = await projectToken('org-maker', 'writer');
    const me = bearer(token);
    const org = await call(s, 'POST', '/api/v1/orgs', me, { name: 'token-org' });
    expect(org.status).toBe(403);
    expect(org.body.message).toContain('project token');
    expect((await call(s, 'GET', '/api/v1/orgs', owner)).body).not.toContainEqual(
      expect.objectContaining({ name: 'token-org' }),
    );
    const accept = await call(
      s,
      'POST',
      '/apis/admin/v1/invites/00000000-0000-4000-8000-000000000000/accept',
      me,
    );
    expect(accept.status).toBe(403);
    const payments = await call(s, 'GET', '/apis/billing/v1/payments', me);
    expect(payments.status).toBe(403);
    // What it is for still works.
    const secrets = '/api/v1/secrets?cluster_name=default&org_name=acme&project_name=vision';
    expect((await call(s, 'GET', secrets, me)).status).toBe(200);
  });

  it('every route for people refuses a project token, whatever its role (routes added later too)', async () => {
    const { token, username } = await projectToken('route-walker', 'manager');
    const fill = (url: string) =>
      url
        .replace(':cluster', 'default')
        .replace(':org', 'acme')
        .replace(':project', 'vision')
        .replace(':name', url.startsWith('/api/v1/users') ? username : 'acme')
        .replace(/:[a-z_]+/gi, '00000000-0000-4000-8000-000000000000')
        .replace('*', 'x');
    let checked = 0;
    for (const [key, access] of routeAccess) {
      const people =
        access === 'user' || access === 'system' || (typeof access === 'object' && access.people);
      if (!people) continue;
      const [method, url] = key.split(' ');
      const res = await s.app.inject({
        method: method as 'GET',
        url: fill(url),
        headers: { authorization: `Bearer ${token}` },
        payload: method === 'GET' || method === 'DELETE' ? undefined : {},
      });
      expect(res.statusCode, key).toBe(403);
      expect(res.json().message, key).toContain('project token');
      checked += 1;
    }
    expect(checked).toBeGreaterThanOrEqual(30);
  });

  it("a project token cannot change its account's e-mail", async () => {
    const { token, username } = await projectToken('mail-changer', 'writer');
    const before = (await emailOf(username)).email;
    const r = await call(s, 'PUT', `/api/v1/users/${username}/profile`, bearer(token), {
      email: 'attacker@evil.test',
    });
    expect(r.status).toBe(403);
    expect((await emailOf(username)).email).toBe(before);
  });

  it("a project token's account never gets a working password: no reset mail, no old link, no sign-in", async () => {
    const { id, token, username } = await projectToken('pw-taker', 'writer');
    // The attack as it went: point the account at a mailbox of the attacker's, then "forgot password".
    await call(s, 'PUT', `/api/v1/users/${username}/profile`, bearer(token), {
      email: 'pw-taker@evil.test',
    });
    const own = (await emailOf(username)).email;
    for (const email of ['pw-taker@evil.test', own]) {
      const forgot = await fetch(`${s.url}/oidc/forgot`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ email }).toString(),
      });
      expect(forgot.status).toBe(200);
      expect(mailsTo(s, email)).toHaveLength(0);
    }
    // What a server before this fix may have left: a reset link, and a password.
    const user = await emailOf(username);
    const link = await issueEmailToken(s.ctx.db, user.id, 'reset');
    const reset = await fetch(`${s.url}/oidc/reset`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ token: link, password: 'attacker-password' }).toString(),
    });
    expect(reset.status).toBe(400);
    await s.ctx.db
      .update(users)
      .set({ passwordHash: await hashPassword('attacker-password') })
      .where(eq(users.id, user.id));
    const a = await startAuthorization(s);
    const tried = await submit(a, { email: user.email, password: 'attacker-password' });
    expect(tried.code).toBeNull();
    // And once revoked, nothing of the account is left.
    expect((await call(s, 'DELETE', `${TOKENS}/${id}`, owner)).status).toBe(200);
    expect((await call(s, 'GET', '/api/v1/config', bearer(token))).body.authorized).toBe(false);
  });

  it("a manager's project token cannot mint a token, nor a service account", async () => {
    const { token } = await projectToken('minter', 'manager');
    const me = bearer(token);
    const child = await call(s, 'POST', TOKENS, me, {
      name: 'child',
      role: 'manager',
      expires_at: inDays(365),
    });
    expect(child.status).toBe(403);
    expect(child.body).not.toHaveProperty('token');
    const sa = await call(s, 'POST', '/api/v1/service_accounts', me, {
      name: 'child-sa',
      default_cluster: 'default',
      default_org: 'acme',
      default_project: 'vision',
    });
    expect(sa.status).toBe(403);
    expect((await call(s, 'GET', TOKENS, owner)).body).not.toContainEqual(
      expect.objectContaining({ name: 'child' }),
    );
  });

  it("a manager's project token cannot leave access behind: no new members, no shares", async () => {
    const { token } = await projectToken('door-opener', 'manager');
    const me = bearer(token);
    // The holder's own account: in the organization, outside the project.
    const holder = await joinOrg(s, await s.user(), 'user');
    const add = await call(
      s,
      'POST',
      '/apis/admin/v1/clusters/default/orgs/acme/projects/vision/users',
      me,
      { user_name: holder.username, role: 'manager' },
    );
    expect(add.status).toBe(403);
    const share = await call(s, 'POST', `/api/v1/users/${holder.username}/permissions`, me, [
      { uri: 'storage://default/acme/vision', action: 'manage' },
    ]);
    expect(share.status).toBe(403);
    const config = await call(s, 'GET', '/api/v1/config', holder);
    expect(config.body.projects ?? []).toEqual([]);
  });

  it("the token a project token's job carries (pass_config) stays in the project and dies with it", async () => {
    const { id, username } = await projectToken('job-runner', 'writer');
    const account = await emailOf(username);
    // What a job the token submitted finds in its environment.
    const job = { ownerId: account.id, maxRunTimeMinutes: 10, clusterName: 'default' } as JobRow;
    const passed = (await passedConfig(s.ctx, job)).NEURO_PASSED_CONFIG;
    const inJob = bearer(JSON.parse(Buffer.from(passed, 'base64').toString()).token as string);
    const secrets = '/api/v1/secrets?cluster_name=default&org_name=acme&project_name=vision';
    expect((await call(s, 'GET', secrets, inJob)).status).toBe(200);
    expect((await call(s, 'POST', '/api/v1/orgs', inJob, { name: 'job-org' })).status).toBe(403);
    expect((await call(s, 'DELETE', `${TOKENS}/${id}`, owner)).status).toBe(200);
    expect((await call(s, 'GET', secrets, inJob)).status).toBe(401);
    expect((await call(s, 'POST', '/api/v1/orgs', inJob, { name: 'job-org' })).status).toBe(401);
  });

  it('revoking a token revokes the tokens it minted', async () => {
    const parent = await projectToken('parent', 'manager');
    // A child minted by the parent on a server before this fix (tokens can no longer mint).
    const pid = (await projectId(s.ctx.db, 'default', 'acme', 'vision'))!;
    const child = await createToken(s.ctx.db, {
      projectId: pid,
      name: 'minted-child',
      role: 'manager',
      expiresAt: new Date(Date.now() + 30 * 86_400_000),
      createdBy: (await emailOf(parent.username)).id,
      issuer: s.config.publicUrl,
    });
    const secrets = '/api/v1/secrets?cluster_name=default&org_name=acme&project_name=vision';
    expect((await call(s, 'GET', secrets, bearer(child.token))).status).toBe(200);
    expect((await call(s, 'DELETE', `${TOKENS}/${parent.id}`, owner)).status).toBe(200);
    expect((await call(s, 'GET', secrets, bearer(child.token))).status).toBe(401);
    const listed = (await call(s, 'GET', TOKENS, owner)).body as { name: string; status: string }[];
    expect(listed.find((t) => t.name === 'minted-child')?.status).toBe('revoked');
  });
});

/** One HTTP request from a local address of the test's choice (127.0.0.1 is the trusted proxy). */
function from(
  address: string,
  method: string,
  path: string,
  headers: Record<string, string>,
  body = '',
) {
  const url = new URL(path, s.url);
  return new Promise<{ status: number; retryAfter: string | undefined; html: string }>(
    (resolve, reject) => {
      const req = request(
        {
          method,
          host: url.hostname,
          port: url.port,
          path: url.pathname + url.search,
          headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) },
          localAddress: address,
        },
        (res) => {
          let html = '';
          res.setEncoding('utf8');
          res.on('data', (d: string) => (html += d));
          res.on('end', () =>
            resolve({ status: res.statusCode ?? 0, retryAfter: res.headers['retry-after'], html }),
          );
        },
      );
      req.on('error', reject);
      req.end(body);
    },
  );
}

/** Posts the sign-in form of an authorization, through the proxy or from another peer. */
function tryPassword(
  a: Authorization,
  email: string,
  password: string,
  opts: { forwardedFor?: string; from?: string } = {},
) {
  return from(
    opts.from ?? '127.0.0.1',
    'POST',
    formAction(a.html),
    {
      'content-type': 'application/x-www-form-urlencoded',
      cookie: [...a.browser.cookies].map(([k, v]) => `${k}=${v}`).join('; '),
      ...(opts.forwardedFor ? { 'x-forwarded-for': opts.forwardedFor } : {}),
    },
    new URLSearchParams({ email, password }).toString(),
  );
}

describe('sign-in and sign-up limits', () => {
  it('refuses the 11th failed sign-in of one account, each from a new X-Forwarded-For (429, Retry-After)', async () => {
    const victim = await s.user();
    const a = await startAuthorization(s);
    for (let i = 1; i <= 10; i++) {
      const r = await tryPassword(a, victim.email, `wrong-${i}`, {
        forwardedFor: `198.51.100.${i}`,
      });
      expect(r.status).toBe(401);
    }
    // Even the right password: the limit comes before the check.
    const r = await tryPassword(a, victim.email, victim.password, {
      forwardedFor: '198.51.100.11',
    });
    expect(r.status).toBe(429);
    expect(Number(r.retryAfter)).toBeGreaterThan(0);
    expect(r.html).toMatch(/Try again in \d+ minutes?/);
  });

  it('caps failed sign-ins per address across accounts', async () => {
    const a = await startAuthorization(s);
    const address = '203.0.113.7';
    for (let i = 0; i < PER_ADDRESS; i++) {
      const target = await s.user();
      expect((await tryPassword(a, target.email, 'wrong', { forwardedFor: address })).status).toBe(
        401,
      );
    }
    const next = await s.user();
    const r = await tryPassword(a, next.email, next.password, { forwardedFor: address });
    expect(r.status).toBe(429);
    expect(Number(r.retryAfter)).toBeGreaterThan(0);
    // Another address is not held back by this one.
    expect(
      (await tryPassword(a, next.email, 'wrong', { forwardedFor: '203.0.113.8' })).status,
    ).toBe(401);
  });

  it('ignores X-Forwarded-For from a peer that is not a trusted proxy', async () => {
    const other = '127.0.0.2';
    const a = await startAuthorization(s);
    for (let i = 0; i < PER_ADDRESS; i++) {
      const target = await s.user();
      const r = await tryPassword(a, target.email, 'wrong', {
        forwardedFor: `192.0.2.${i + 1}`,
        from: other,
      });
      expect(r.status).toBe(401);
    }
    // Every try came from 127.0.0.2, whatever it claimed.
    const next = await s.user();
    const r = await tryPassword(a, next.email, 'wrong', {
      forwardedFor: '192.0.2.200',
      from: other,
    });
    expect(r.status).toBe(429);
  });

  it('an untrusted peer cannot pick the origin the server advertises (X-Forwarded-Host, -Proto)', async () => {
    const forged = { 'x-forwarded-proto': 'https', 'x-forwarded-host': 'evil.test' };
    const discovery = '/oidc/.well-known/openid-configuration';
    const direct = JSON.parse((await from('127.0.0.2', 'GET', discovery, forged)).html);
    expect(direct.token_endpoint).toBe(`${s.url}/oidc/token`);
    // The same headers from the configured proxy are believed.
    const proxied = JSON.parse((await from('127.0.0.1', 'GET', discovery, forged)).html);
    expect(proxied.token_endpoint).toBe('https://evil.test/oidc/token');
  });

  it('limits sign-up answers that an e-mail or user name is taken, per address', async () => {
    const a = await startAuthorization(s, { screen: 'signup' });
    const post = async (i: number) => {
      const known = await s.user();
      const res = await a.browser.post(
        formAction(a.html),
        { name: 'Probe', username: `probe-${i}-x`, email: known.email, password: 'long-enough-1' },
        { 'x-forwarded-for': '198.18.0.1' },
      );
      return { status: res.status, html: await res.text(), retry: res.headers.get('retry-after') };
    };
    for (let i = 0; i < PER_ADDRESS; i++) {
      const r = await post(i);
      expect(r.status).toBe(400);
      expect(r.html).toContain('An account with this e-mail already exists');
    }
    const r = await post(PER_ADDRESS);
    expect(r.status).toBe(429);
    expect(r.html).not.toContain('An account with this e-mail already exists');
    expect(r.html).toMatch(/Try again in \d+ minutes?/);
    expect(Number(r.retry)).toBeGreaterThan(0);
    // A person who signs in is not hurt by it.
    const u = await s.user();
    expect((await signIn(s, u.email, u.password)).status).toBe(200);
  });
});
