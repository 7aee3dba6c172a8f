import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../test/harness.js';
import { Browser, formAction, linkIn } from '../../auth/oidc/testing/browser.js';
import { mailsTo, signIn, startAuthorization, submit } from '../../auth/oidc/testing/flow.js';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer({}, { listen: true });
});
afterAll(() => s?.stop());

const SENT = 'If an account exists for this address, we have sent it a link';

describe('password reset', () => {
  it('answers the same whether or not the address has an account', async () => {
    const b = new Browser(s.url);
    const unknown = await b.post('/oidc/forgot', { email: 'nobody@example.test' });
    expect(unknown.status).toBe(200);
    expect(await unknown.text()).toContain(SENT);
    expect(mailsTo(s, 'nobody@example.test')).toHaveLength(0);
  });

  it('mails a single-use link that changes the password', async () => {
    const u = await s.user();
    // From the sign-in page's "Forgot password?" link.
    const a = await startAuthorization(s);
    const forgotHref = /href="([^"]*\/oidc\/forgot[^"]*)"/.exec(a.html)![1].replace(/&amp;/g, '&');
    const forgot = await a.browser.get(forgotHref);
    const sent = await a.browser.post(formAction(await forgot.text()), { email: u.email });
    expect(await sent.text()).toContain(SENT);

    const [mail] = mailsTo(s, u.email);
    expect(mail).toContain('Subject: Reset your Orrery password');
    const link = linkIn(mail, `${s.url}/oidc/reset?token=`);
    const b = new Browser(s.url);
    const form = await (await b.get(link)).text();
    expect(form).toContain('Choose a new password');

    const short = await b.post(formAction(form), {
      token: new URL(link).searchParams.get('token')!,
      password: 'short',
    });
    expect(short.status).toBe(400);
    expect(await short.text()).toContain('Use at least 8 characters');

    const fields = {
      token: new URL(link).searchParams.get('token')!,
      password: 'brand-new-secret',
    };
    const done = await b.post(formAction(form), fields);
    expect(done.status).toBe(200);
    expect(await done.text()).toContain('Your password has been changed');

    const old = await startAuthorization(s);
    expect(
      await (await submit(old, { email: u.email, password: u.password })).res.text(),
    ).toContain('Wrong email or password');
    expect((await signIn(s, u.email, 'brand-new-secret')).status).toBe(200);

    // Single use: the same link no longer opens nor changes anything.
    expect((await b.get(link)).status).toBe(400);
    const reuse = await b.post('/oidc/reset', { ...fields, password: 'another-secret-1' });
    expect(reuse.status).toBe(400);
    expect(await reuse.text()).toContain('invalid, has expired or was already used');
    expect((await signIn(s, u.email, 'brand-new-secret')).status).toBe(200);
  });

  it('limits forgot-password requests', async () => {
    const b = new Browser(s.url);
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) {
      statuses.push((await b.post('/oidc/forgot', { email: `x${i}@example.test` })).status);
    }
    expect(statuses.at(-1)).toBe(429);
  });
});
