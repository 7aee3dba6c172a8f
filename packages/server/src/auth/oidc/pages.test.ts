import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../test/harness.js';
import { oidcEndpoints } from '../endpoints.js';
import { Browser } from './testing/browser.js';
import { startAuthorization, submit } from './testing/flow.js';

let s: TestServer;
beforeAll(async () => {
  // The test itself plays the reverse proxy, whose X-Forwarded-* the server believes.
  s = await startTestServer(
    {
      ORRERY_WHITE_LABELS: JSON.stringify({ 'ml.partner.test': { title: 'Partner ML' } }),
      ORRERY_TRUSTED_PROXIES: '127.0.0.1',
    },
    { listen: true },
  );
});
afterAll(() => s?.stop());

describe('discovery', () => {
  it('advertises every endpoint under /oidc, as /config tells the CLI', async () => {
    const res = await fetch(`${s.url}/oidc/.well-known/openid-configuration`);
    expect(res.status).toBe(200);
    const doc = (await res.json()) as Record<string, unknown>;
    const advertised = await oidcEndpoints(s.config);
    expect(doc).toMatchObject({
      issuer: `${s.url}/oidc`,
      authorization_endpoint: advertised.authorization,
      token_endpoint: advertised.token,
      end_session_endpoint: advertised.endSession,
      jwks_uri: `${s.url}/oidc/jwks`,
      code_challenge_methods_supported: ['S256'],
    });
    expect(advertised.authorization).toBe(`${s.url}/oidc/auth`);
  });

  it('publishes the public half of the database signing keys', async () => {
    const jwks = (await (await fetch(`${s.url}/oidc/jwks`)).json()) as { keys: object[] };
    expect(jwks.keys.map((k) => (k as { kid: string }).kid)).toEqual(s.ctx.keys.map((k) => k.kid));
    for (const k of jwks.keys) expect(k).not.toHaveProperty('d');
  });

  it('advertises the public URL behind a proxy (X-Forwarded-*)', async () => {
    const res = await fetch(`${s.url}/oidc/.well-known/openid-configuration`, {
      headers: { 'x-forwarded-proto': 'https', 'x-forwarded-host': 'orrery.example.com' },
    });
    const doc = (await res.json()) as Record<string, string>;
    expect(doc.token_endpoint).toBe('https://orrery.example.com/oidc/token');
  });
});

describe('sign-in page', () => {
  it('has Email and Password fields, a Sign in button and the account links', async () => {
    const { page, html } = await startAuthorization(s);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toContain('text/html');
    expect(html).toMatch(/<label for="f-email">Email<\/label>/);
    expect(html).toMatch(/<label for="f-password">Password<\/label>/);
    expect(html).toMatch(/<button type="submit">Sign in<\/button>/);
    expect(html).toContain('Create an account');
    expect(html).toContain('Forgot password?');
    expect(html).toContain('Sign in to Orrery');
    expect(html).not.toContain('<script');
  });

  it('shows the white-label title of the host', async () => {
    const res = await fetch(`${s.url}/oidc/forgot`, {
      headers: { 'x-forwarded-host': 'ml.partner.test' },
    });
    expect(await res.text()).toMatch(/<div class="brand">.*Partner ML<\/div>/);
  });

  it('opens on the sign-up page with screen=signup', async () => {
    const { html } = await startAuthorization(s, { screen: 'signup' });
    expect(html).toContain('Create your account');
    for (const label of ['Name', 'Username', 'Email', 'Password']) {
      expect(html).toContain(`>${label}</label>`);
    }
  });

  it('shows "Wrong email or password" and keeps the e-mail', async () => {
    const u = await s.user();
    const a = await startAuthorization(s);
    const { res, code } = await submit(a, { email: u.email, password: 'not-the-password' });
    expect(code).toBeNull();
    expect(res.status).toBe(401);
    const html = await res.text();
    expect(html).toContain('Wrong email or password');
    expect(html).toContain(`value="${u.email}"`);
    const unknown = await submit(a, { email: 'nobody@example.test', password: 'whatever1' });
    expect(await unknown.res.text()).toContain('Wrong email or password');
  });

  it('limits sign-in attempts per address and e-mail', async () => {
    const u = await s.user();
    const a = await startAuthorization(s);
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++) {
      const res = await a.browser.post(`/oidc/interaction/${a.page.url.split('/').pop()}/login`, {
        email: u.email,
        password: `wrong-${i}`,
      });
      statuses.push(res.status);
      if (res.status === 429)
        expect(await res.text()).toContain('Too many attempts, try again later');
    }
    expect(statuses.slice(0, 10).every((st) => st === 401)).toBe(true);
    expect(statuses[10]).toBe(429);
    // Another account is not locked out by these attempts.
    const other = await s.user();
    const b = await startAuthorization(s);
    expect((await submit(b, { email: other.email, password: other.password })).code).toBeTruthy();
  });

  it('answers a stale or foreign interaction with an "expired" page', async () => {
    const res = await new Browser(s.url).get('/oidc/interaction/not-a-real-uid');
    expect(res.status).toBe(400);
    expect(await res.text()).toContain('This sign-in has expired');
  });
});

describe('form parsing stays in its scope', () => {
  it('the API still refuses URL-encoded bodies', async () => {
    const u = await s.user();
    const res = await fetch(`${s.url}/api/v1/users/${u.username}/profile`, {
      method: 'PUT',
      headers: { ...u.headers, 'content-type': 'application/x-www-form-urlencoded' },
      body: 'name=x',
    });
    expect(res.status).toBe(415);
  });
});
