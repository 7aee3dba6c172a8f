import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeJwt } from 'jose';
import { startTestServer, type TestServer } from '../../test/harness.js';
import { createTokenVerifier } from '../verify.js';
import { publicJwks } from '../keys.js';
import { Browser, formAction } from './testing/browser.js';
import { exchangeCode, refresh, signIn, startAuthorization, submit } from './testing/flow.js';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer({}, { listen: true });
});
afterAll(() => s?.stop());

const configWith = async (token: unknown) => {
  const res = await fetch(`${s.url}/api/v1/config`, {
    headers: { authorization: `Bearer ${String(token)}` },
  });
  return (await res.json()) as { authorized: boolean };
};

describe('authorization code + PKCE', () => {
  it('issues a JWT access token with identity that the API accepts', async () => {
    const u = await s.user({ name: 'Ada Lovelace' });
    const { status, body } = await signIn(s, u.email, u.password);
    expect(status).toBe(200);
    expect(body.token_type).toBe('Bearer');
    const claims = decodeJwt(String(body.access_token));
    expect(claims).toMatchObject({
      identity: u.username,
      email: u.email,
      sub: u.id,
      iss: `${s.url}/oidc`,
      aud: s.config.oidc.audience,
    });
    // The API's own verifier: issuer, audience and the database signing keys.
    const verifier = createTokenVerifier({
      issuer: s.config.oidc.issuer,
      audience: s.config.oidc.audience,
      jwks: publicJwks(s.ctx.keys),
    });
    expect(await verifier.verifyClaims(String(body.access_token))).toMatchObject({
      username: u.username,
    });
    expect((await configWith(body.access_token)).authorized).toBe(true);

    const id = decodeJwt(String(body.id_token));
    expect(id).toMatchObject({
      sub: u.id,
      email: u.email,
      email_verified: true,
      name: 'Ada Lovelace',
      preferred_username: u.username,
      identity: u.username,
      aud: s.config.oidc.clientId,
    });
  });

  it('refreshes tokens with the refresh grant', async () => {
    const u = await s.user();
    const first = await signIn(s, u.email, u.password);
    expect(first.body.refresh_token).toBeTruthy();
    const next = await refresh(s, String(first.body.refresh_token));
    expect(next.status).toBe(200);
    expect(decodeJwt(String(next.body.access_token))).toMatchObject({ identity: u.username });
    expect((await configWith(next.body.access_token)).authorized).toBe(true);
    expect(next.body.refresh_token).toBeTruthy();
    // Public clients get rotated refresh tokens: the used one is spent.
    const again = await refresh(s, String(first.body.refresh_token));
    expect(again.status).toBe(400);
    expect(again.body.error).toBe('invalid_grant');
  });

  it('serves the Apolo CLI: scope=offline_access, loopback callback, refresh token', async () => {
    const u = await s.user();
    const { status, body } = await signIn(s, u.email, u.password, {
      scope: 'offline_access',
      redirectUri: 'http://127.0.0.1:54541',
    });
    expect(status).toBe(200);
    expect(body.refresh_token).toBeTruthy();
    expect(decodeJwt(String(body.access_token)).identity).toBe(u.username);
    const headless = await signIn(s, u.email, u.password, {
      scope: 'offline_access',
      redirectUri: `${s.url}/oauth/show-code`,
    });
    expect(headless.status).toBe(200);
  });

  it('requires PKCE and a registered redirect URI', async () => {
    const noPkce = await fetch(
      `${s.url}/oidc/auth?client_id=orrery-console&response_type=code&scope=openid&redirect_uri=${encodeURIComponent(`${s.url}/auth/callback`)}`,
      { redirect: 'manual' },
    );
    expect(noPkce.headers.get('location')).toContain('error=invalid_request');
    const a = await startAuthorization(s, { redirectUri: 'http://evil.example/cb' });
    expect(a.html).toContain('Sign-in failed');
    expect(a.html).toContain('redirect_uri');
  });

  it('rejects a code exchanged with the wrong verifier', async () => {
    const u = await s.user();
    const a = await startAuthorization(s);
    const { code } = await submit(a, { email: u.email, password: u.password });
    const bad = await exchangeCode(s, { ...a, verifier: 'x'.repeat(43) }, code!);
    expect(bad.status).toBe(400);
    expect(bad.body.error).toBe('invalid_grant');
  });

  it('signs out through end_session back to the console', async () => {
    const u = await s.user();
    const { body, authorization } = await signIn(s, u.email, u.password);
    const { browser } = authorization;
    const query = new URLSearchParams({
      id_token_hint: String(body.id_token),
      post_logout_redirect_uri: `${s.url}/`,
      client_id: 'orrery-console',
    });
    const page = await browser.get(`/oidc/session/end?${query}`);
    const html = await page.text();
    expect(html).toContain('Sign out of Orrery?');
    const xsrf = /name="xsrf" value="([^"]+)"/.exec(html)![1];
    const done = await browser.post(formAction(html), { xsrf, logout: 'yes' });
    const { leftTo } = await browser.follow(done);
    expect(leftTo?.toString()).toBe(`${s.url}/`);
    // The session is gone: a new authorization asks for the password again.
    const again = await startAuthorization(s, { browser });
    expect(again.html).toContain('Sign in');
  });

  it('shows a branded "Signed out" page without a redirect URI', async () => {
    const b = new Browser(s.url);
    const html = await (await b.get('/oidc/session/end')).text();
    const xsrf = /name="xsrf" value="([^"]+)"/.exec(html)![1];
    const { res } = await b.follow(await b.post(formAction(html), { xsrf, logout: 'yes' }));
    const page = await res.text();
    expect(page).toContain('You have signed out of Orrery.');
    expect(page).toContain(`href="${s.url}/"`);
  });
});
