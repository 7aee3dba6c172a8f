import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asc, eq } from 'drizzle-orm';
import { emailTokens } from '../../db/schema.js';
import { startTestServer, type TestServer } from '../../test/harness.js';
import { call, tenancy } from '../../test/fixtures.js';
import { Browser, linkIn } from '../../auth/oidc/testing/browser.js';
import { mailsTo, startAuthorization, submit } from '../../auth/oidc/testing/flow.js';
import { userByEmail } from '../users/store.js';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer({}, { listen: true });
});
afterAll(() => s?.stop());

const resendOf = (username: string) => `/api/v1/users/${username}/verification-mail`;

describe('resend verification mail', () => {
  it('mails a working link to an unverified user, three mails in ten minutes at most', async () => {
    const u = await s.user({ verified: false });
    // The sign-up mail counts too; this user was made without one, so three resends.
    expect((await call(s, 'POST', resendOf(u.username), u)).status).toBe(204);
    expect((await call(s, 'POST', resendOf(u.username), u)).status).toBe(204);
    expect((await call(s, 'POST', resendOf(u.username), u)).status).toBe(204);
    const [mail] = mailsTo(s, u.email);
    expect(mail).toContain('Subject: Verify your e-mail address for Orrery');

    const again = await s.app.inject({
      method: 'POST',
      url: resendOf(u.username),
      headers: u.headers,
    });
    expect(again.statusCode).toBe(429);
    expect(again.json().message).toBe(
      'Three verification mails were sent in the last 10 minutes. Please wait before asking again.',
    );
    const wait = Number(again.headers['retry-after']);
    expect(wait).toBeGreaterThan(590);
    expect(wait).toBeLessThanOrEqual(600);
    expect(mailsTo(s, u.email)).toHaveLength(3);

    // Ten minutes after the first of them, one more may go.
    const [first] = await s.ctx.db
      .select()
      .from(emailTokens)
      .where(eq(emailTokens.userId, u.id))
      .orderBy(asc(emailTokens.createdAt))
      .limit(1);
    await s.ctx.db
      .update(emailTokens)
      .set({ createdAt: new Date(Date.now() - 601_000) })
      .where(eq(emailTokens.tokenHash, first.tokenHash));
    expect((await call(s, 'POST', resendOf(u.username), u)).status).toBe(204);
    expect((await call(s, 'POST', resendOf(u.username), u)).status).toBe(429);

    // Any of the links verifies the address.
    const link = linkIn(mailsTo(s, u.email)[1], `${s.url}/oidc/verify?token=`);
    expect((await new Browser(s.url).get(link)).status).toBe(200);
    expect((await userByEmail(s.ctx.db, u.email))!.emailVerified).toBe(true);
  });

  it('refuses a verified user, another user, and an anonymous caller', async () => {
    const verified = await s.user();
    const r = await call(s, 'POST', resendOf(verified.username), verified);
    expect(r.status).toBe(409);
    expect(r.body.message).toBe('Your e-mail address is already verified');

    const other = await s.user({ verified: false });
    expect((await call(s, 'POST', resendOf(other.username), verified)).status).toBe(404);
    expect((await call(s, 'POST', resendOf(other.username), null)).status).toBe(401);
    expect(mailsTo(s, other.email)).toHaveLength(0);
  });
});

describe('sign-up from an invitation mail', () => {
  const fields = (email: string, username: string) => ({
    name: 'Ada Lovelace',
    username,
    email,
    password: 'analytical-engine',
  });

  /** Invites `email` to a fresh organization and returns the sign-up link's parameters. */
  async function invited(email: string, org: string) {
    const { owner } = await tenancy(s, org, `${org}-p`);
    const r = await call(s, 'POST', '/apis/admin/v1/invites', owner, {
      email,
      role_name: 'user',
      org_name: org,
    });
    expect(r.status).toBe(201);
    const link = new URL(linkIn(mailsTo(s, email)[0], `${s.config.publicUrl}/invite-signup`));
    return {
      invite: link.searchParams.get('invite')!,
      invite_proof: link.searchParams.get('proof')!,
    };
  }

  it('verifies the invited address with the link, sending no verification mail', async () => {
    const params = await invited('ada@example.test', 'engines');
    expect(params.invite_proof).toMatch(/^[\w-]{43}$/);
    const a = await startAuthorization(s, { screen: 'signup', extra: params });
    const { code } = await submit(a, fields('ada@example.test', 'ada'));
    expect(code).toBeTruthy();
    expect((await userByEmail(s.ctx.db, 'ada@example.test'))!.emailVerified).toBe(true);
    expect(mailsTo(s, 'ada@example.test')).toHaveLength(1); // the invitation only
  });

  it('does not verify another address, a forged proof, or a bare invitation id', async () => {
    const params = await invited('bob@example.test', 'looms');
    const tries = [
      { extra: params, email: 'mallory@example.test', username: 'mallory' },
      {
        extra: { ...params, invite_proof: 'x'.repeat(43) },
        email: 'bob@example.test',
        username: 'bob',
      },
      { extra: { invite: params.invite }, email: 'bob2@example.test', username: 'bob2' },
    ];
    for (const t of tries) {
      const a = await startAuthorization(s, { screen: 'signup', extra: t.extra });
      const { code } = await submit(a, fields(t.email, t.username));
      expect(code).toBeTruthy();
      expect((await userByEmail(s.ctx.db, t.email))!.emailVerified).toBe(false);
      expect(mailsTo(s, t.email).at(-1)).toContain('Verify your e-mail address');
    }
  });
});
