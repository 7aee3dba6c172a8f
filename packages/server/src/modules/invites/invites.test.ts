import { describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { invites } from '../../db/schema.js';
import { verifyEmail, type TestServer, type TestUser } from '../../test/harness.js';
import { call, joinOrg, tenantServer } from '../../test/fixtures.js';
import { mailsTo } from '../../auth/oidc/testing/flow.js';
import { linkIn } from '../../auth/oidc/testing/browser.js';

const A = '/apis/admin/v1';

describe('invites', () => {
  let s: TestServer;
  let owner: TestUser;
  tenantServer((x) => ({ s, owner } = x), { ORRERY_INVITE_TTL: '2d' });

  const invite = (email: string, role = 'user', who = owner, origin?: string) =>
    call(s, 'POST', `${A}/invites`, who, { email, role_name: role, org_name: 'acme', origin });

  it('mails a newcomer a sign-up link that leads to the invitation, expiring after the TTL', async () => {
    const r = await invite('newcomer@example.test', 'manager');
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({
      organization_name: 'acme',
      email: 'newcomer@example.test',
      role: 'manager',
      status: 'pending',
    });
    expect(r.body.invite_id).toBe(r.body.id);
    const days = (Date.parse(r.body.expired_at) - Date.now()) / 86400_000;
    expect(days).toBeGreaterThan(1.99);
    expect(days).toBeLessThanOrEqual(2);
    const [mail] = mailsTo(s, 'newcomer@example.test');
    expect(mail).toContain('You have been invited to organization acme');
    // The proof in the link verifies the address at sign-up (accounts/first-run.test.ts).
    expect(linkIn(mail, `${s.config.publicUrl}/invite-signup`)).toMatch(
      new RegExp(
        `^${s.config.publicUrl}/invite-signup\\?invite=${r.body.id}&email=newcomer%40example.test&proof=[\\w-]{43}$`,
      ),
    );
  });

  it('mails someone with an account a link straight to the invitation, on a known origin only', async () => {
    const u = await s.user();
    const r = await invite(u.email, 'user', owner, 'https://evil.example.test');
    const [mail] = mailsTo(s, u.email);
    expect(linkIn(mail, s.config.publicUrl)).toBe(`${s.config.publicUrl}/invites/${r.body.id}`);
    expect(mail).not.toContain('evil.example.test');
  });

  it('lets the invitee accept once, joining the organization with the role', async () => {
    const u = await s.user();
    const { body } = await invite(u.email, 'manager');
    const incoming = await call(s, 'GET', `${A}/invites/incoming`, u);
    expect(incoming.body.map((i: { id: string }) => i.id)).toEqual([body.id]);
    expect((await call(s, 'GET', `${A}/invites/${body.id}`, u)).body.status).toBe('pending');

    const accepted = await call(s, 'POST', `${A}/invites/${body.id}/accept`, u);
    expect(accepted.status).toBe(200);
    expect(accepted.body.status).toBe('accepted');
    const orgs = await call(s, 'GET', '/api/v1/orgs', u);
    expect(orgs.body.items).toEqual([expect.objectContaining({ name: 'acme', role: 'manager' })]);
    const again = await call(s, 'POST', `${A}/invites/${body.id}/accept`, u);
    expect(again.status).toBe(409);
    expect(again.body.message).toBe('This invitation is accepted');
  });

  it('asks an unverified invitee to verify the address before accepting', async () => {
    const u = await s.user({ verified: false });
    const { body } = await invite(u.email);
    const r = await call(s, 'POST', `${A}/invites/${body.id}/accept`, u);
    expect(r.status).toBe(403);
    expect(r.body.message).toBe('Verify your e-mail address before accepting an invitation');
    await verifyEmail(s, u.id);
  });

  it('hides an invite from anyone it is not addressed to', async () => {
    const u = await s.user();
    const stranger = await s.user();
    const { body } = await invite(u.email);
    expect((await call(s, 'GET', `${A}/invites/${body.id}`, stranger)).status).toBe(404);
    expect((await call(s, 'POST', `${A}/invites/${body.id}/accept`, stranger)).status).toBe(404);
    expect((await call(s, 'POST', `${A}/invites/${body.id}/decline`, stranger)).status).toBe(404);
    expect((await call(s, 'GET', `${A}/invites/not-an-id`, u)).status).toBe(404);
  });

  it('declines, after which the invite reads declined and cannot be accepted', async () => {
    const u = await s.user();
    const { body } = await invite(u.email);
    const d = await call(s, 'POST', `${A}/invites/${body.id}/decline`, u);
    expect(d.body.status).toBe('declined');
    expect((await call(s, 'POST', `${A}/invites/${body.id}/accept`, u)).status).toBe(409);
    expect((await call(s, 'GET', '/api/v1/orgs', u)).body.items).toEqual([]);
  });

  it('reads expired after its time, and a resend opens it again with a new mail', async () => {
    const u = await s.user();
    const { body } = await invite(u.email);
    await s.ctx.db
      .update(invites)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(invites.id, body.id));
    {
      expect((await call(s, 'GET', `${A}/invites/${body.id}`, u)).body.status).toBe('expired');
      const r = await call(s, 'POST', `${A}/invites/${body.id}/accept`, u);
      expect(r.body.message).toBe('This invitation is expired');
      const resent = await call(s, 'POST', `${A}/invites/${body.id}/resend`, owner, {
        org_name: 'acme',
      });
      expect(resent.body.status).toBe('pending');
      expect(mailsTo(s, u.email)).toHaveLength(2);
      expect((await call(s, 'POST', `${A}/invites/${body.id}/accept`, u)).status).toBe(200);
    }
  });

  it('resends only with the organization name it belongs to', async () => {
    const { body } = await invite('resend@example.test');
    const r = await call(s, 'POST', `${A}/invites/${body.id}/resend`, owner, {});
    expect(r.status).toBe(400);
    expect(r.body.message).toBe('Resend invite needs an organization name');
    const other = await call(s, 'POST', `${A}/invites/${body.id}/resend`, owner, {
      org_name: 'other',
    });
    expect(other.status).toBe(404);
  });

  it('lists the organization’s invites for managers and removes one', async () => {
    const { body } = await invite('removed@example.test');
    const list = await call(s, 'GET', `${A}/orgs/acme/invites`, owner);
    expect(list.body.map((i: { email: string }) => i.email)).toContain('removed@example.test');
    expect((await call(s, 'DELETE', `${A}/invites/${body.id}`, owner)).status).toBe(204);
    expect((await call(s, 'DELETE', `${A}/invites/${body.id}`, owner)).status).toBe(404);
  });

  it('refuses a second open invite, a member, a bad address, and admin from a manager', async () => {
    await invite('twice@example.test');
    const twice = await invite('twice@example.test');
    expect(twice.status).toBe(409);
    expect(twice.body.message).toBe(
      'User twice@example.test is already invited to acme organization',
    );
    const member = await invite(owner.email);
    expect(member.status).toBe(409);
    const bad = await invite('not-an-address');
    expect(bad.status).toBe(400);
    expect(bad.body.errors[0]).toEqual({ path: 'email', message: 'Enter a valid e-mail address' });
    const manager = await joinOrg(s, await s.user(), 'manager');
    const asAdmin = await invite('boss@example.test', 'admin', manager);
    expect(asAdmin.status).toBe(403);
    expect((await invite('staff@example.test', 'user', manager)).status).toBe(201);
  });
});
