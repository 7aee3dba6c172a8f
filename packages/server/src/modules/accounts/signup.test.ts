import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeJwt } from 'jose';
import { startTestServer, type TestServer } from '../../test/harness.js';
import { userByEmail } from '../users/store.js';
import { signUp } from './service.js';
import { Browser, linkIn } from '../../auth/oidc/testing/browser.js';
import {
  exchangeCode,
  mailsTo,
  refresh,
  startAuthorization,
  submit,
} from '../../auth/oidc/testing/flow.js';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer({}, { listen: true });
});
afterAll(() => s?.stop());

const signupFields = (over: Record<string, string> = {}) => ({
  name: 'Grace Hopper',
  username: 'grace',
  email: 'grace@example.test',
  password: 'cobol-forever',
  ...over,
});

describe('sign-up', () => {
  it('creates an unverified account, signs in, mails a link that verifies it', async () => {
    const a = await startAuthorization(s, { screen: 'signup' });
    const { code } = await submit(a, signupFields());
    expect(code).toBeTruthy();
    const tokens = await exchangeCode(s, a, code!);
    expect(tokens.status).toBe(200);
    expect(decodeJwt(String(tokens.body.id_token))).toMatchObject({
      preferred_username: 'grace',
      email_verified: false,
    });
    const user = await userByEmail(s.ctx.db, 'grace@example.test');
    expect(user).toMatchObject({ username: 'grace', name: 'Grace Hopper', emailVerified: false });
    expect(user!.passwordHash).toMatch(/^scrypt\$/);

    const [mail] = mailsTo(s, 'grace@example.test');
    expect(mail).toContain('Subject: Verify your e-mail address for Orrery');
    const link = linkIn(mail, `${s.url}/oidc/verify?token=`);
    const page = await new Browser(s.url).get(link);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('Your e-mail address is verified');
    expect((await userByEmail(s.ctx.db, 'grace@example.test'))!.emailVerified).toBe(true);

    // The console's silent refresh then sees the verified address, and so does the API.
    const refreshed = await refresh(s, String(tokens.body.refresh_token));
    expect(decodeJwt(String(refreshed.body.id_token))).toMatchObject({ email_verified: true });
    const me = await fetch(`${s.url}/api/v1/users/grace`, {
      headers: { authorization: `Bearer ${String(refreshed.body.access_token)}` },
    });
    expect(((await me.json()) as { email_verified: boolean }).email_verified).toBe(true);

    // Following the link again (a mail scanner, a second click) still says verified.
    expect((await new Browser(s.url).get(link)).status).toBe(200);
    expect((await new Browser(s.url).get(`${link}x`)).status).toBe(400);
  });

  it('explains each invalid field', async () => {
    const a = await startAuthorization(s, { screen: 'signup' });
    const { res, code } = await submit(a, {
      name: ' ',
      username: 'Bad_Name',
      email: 'not-an-email',
      password: 'short',
    });
    expect(code).toBeNull();
    expect(res.status).toBe(400);
    const html = await res.text();
    expect(html).toContain('Enter your name');
    expect(html).toContain('Use 3 to 40 lowercase letters, digits and single hyphens');
    expect(html).toContain('Enter a valid e-mail address');
    expect(html).toContain('Use at least 8 characters');
    expect(html).toContain('value="Bad_Name"');
    expect(html).not.toContain('value="short"');
  });

  it('refuses a taken username and an e-mail that already has an account', async () => {
    const existing = await s.user({ username: 'taken-name', email: 'Taken@Example.test' });
    const a = await startAuthorization(s, { screen: 'signup' });
    const { res } = await submit(
      a,
      signupFields({ username: existing.username, email: 'taken@example.test' }),
    );
    const html = await res.text();
    expect(html).toContain('This username is taken');
    expect(html).toContain('An account with this e-mail already exists');
  });

  it('is reachable from the sign-in page', async () => {
    const a = await startAuthorization(s);
    const href = /href="([^"]+\/signup)"/.exec(a.html)![1];
    const page = await a.browser.get(href);
    expect(await page.text()).toContain('Create your account');
  });

  it('maps a sign-up race on the unique indexes onto the field', async () => {
    const deps = { db: s.ctx.db, mailer: s.ctx.mailer, publicUrl: s.url, log: s.app.log };
    const input = signupFields({ username: 'racer', email: 'racer@example.test' });
    const results = await Promise.all([
      signUp(deps, input, 'Orrery'),
      signUp(deps, { ...input, email: 'racer2@example.test' }, 'Orrery'),
    ]);
    const failed = results.filter((r) => 'errors' in r);
    expect(results.filter((r) => 'user' in r)).toHaveLength(1);
    if (failed.length)
      expect(failed[0]).toEqual({ errors: { username: 'This username is taken' } });
  });
});
