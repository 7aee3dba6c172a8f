import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../config.js';
import { startTestServer, type TestServer, type TestUser } from '../../test/harness.js';
import { call, joinOrg, tenancy } from '../../test/fixtures.js';
import { balanceOf, ledgerOf } from '../../test/billing.js';

const B = '/apis/billing/v1';

describe('payments setting', () => {
  it('is test on a loopback-only server, off on a shared one, stripe with its keys', () => {
    expect(loadConfig({}).payments).toEqual({ mode: 'test' });
    expect(loadConfig({ HOST: '::1' }).payments.mode).toBe('test');
    expect(loadConfig({ HOST: '0.0.0.0' }).payments).toEqual({ mode: 'off' });
    expect(loadConfig({ HOST: '10.0.0.5' }).payments.mode).toBe('off');
    const keys = { STRIPE_SECRET_KEY: 'sk_test_1', STRIPE_WEBHOOK_SECRET: 'whsec_1' };
    expect(loadConfig({ HOST: '0.0.0.0', ...keys }).payments).toEqual({
      mode: 'stripe',
      stripe: { secretKey: 'sk_test_1', webhookSecret: 'whsec_1', apiUrl: undefined },
    });
    // An operator may still choose: the test checkout on a shared machine, or no purchases.
    expect(loadConfig({ HOST: '0.0.0.0', ORRERY_PAYMENTS: 'test' }).payments.mode).toBe('test');
    expect(loadConfig({ ORRERY_PAYMENTS: 'off', ...keys }).payments.mode).toBe('off');
  });

  it.each([
    [{ STRIPE_SECRET_KEY: 'sk_test_1' }, 'STRIPE_WEBHOOK_SECRET'],
    [{ STRIPE_WEBHOOK_SECRET: 'whsec_1' }, 'STRIPE_SECRET_KEY'],
    [{ ORRERY_PAYMENTS: 'stripe' }, 'ORRERY_PAYMENTS'],
    [{ ORRERY_PAYMENTS: 'free' }, 'ORRERY_PAYMENTS'],
  ])('refuses %j naming %s', (env, name) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(name);
  });
});

describe('buying credits, test checkout', () => {
  let s: TestServer;
  let admin: TestUser;
  let owner: TestUser;
  let manager: TestUser;
  let member: TestUser;
  let stranger: TestUser;
  const here = (path: string) => `${s.config.publicUrl}${path}`;
  const buy = (who: TestUser, over: Record<string, unknown> = {}) =>
    call(s, 'POST', `${B}/buy_credits`, who, {
      org_name: 'acme',
      amount_in_cents: 1000,
      success_url: here('/org-billing?tab=credits'),
      cancel_url: here('/org-billing'),
      ...over,
    });
  const checkoutId = (url: string) => url.split('/billing/checkout/')[1];

  beforeAll(async () => {
    s = await startTestServer();
    admin = await s.user({ systemRole: 'admin' });
    ({ owner } = await tenancy(s));
    manager = await joinOrg(s, await s.user(), 'manager');
    member = await joinOrg(s, await s.user(), 'user');
    ({ owner: stranger } = await tenancy(s, 'globex', 'p'));
    await call(s, 'PATCH', '/apis/admin/v1/orgs/acme/balance', admin, { credits: '5' });
  });
  afterAll(() => s.stop());

  it('tells any signed-in user the mode, and no one else', async () => {
    expect((await call(s, 'GET', `${B}/payments`, member)).body).toEqual({ mode: 'test' });
    expect((await call(s, 'GET', `${B}/payments`, null)).status).toBe(401);
  });

  it.each([
    [150, 'whole number of credits'],
    [0, 'positive'],
    [-100, 'positive'],
    [100.5, 'whole number of cents'],
    ['1000', 'whole number of cents'],
    [100_000_000, 'At most 999,999 credits'],
  ])('refuses amount_in_cents %j on the field', async (amount, message) => {
    const r = await buy(owner, { amount_in_cents: amount });
    expect(r.status).toBe(400);
    expect(r.body.errors[0].path).toBe('amount_in_cents');
    expect(r.body.errors[0].message).toContain(message);
  });

  it.each(['success_url', 'cancel_url'])(
    'refuses a %s outside this console (an open redirect)',
    async (key) => {
      for (const url of ['https://evil.example/org-billing', 'http://127.0.0.1:1/x', 'nope']) {
        const r = await buy(owner, { [key]: url });
        expect(r.status).toBe(400);
        expect(r.body.errors[0].path).toBe(key);
      }
    },
  );

  it('sells nothing to an organization with unlimited credits', async () => {
    const r = await call(s, 'POST', `${B}/buy_credits`, stranger, {
      org_name: 'globex',
      amount_in_cents: 1000,
      success_url: here('/org-billing'),
      cancel_url: here('/org-billing'),
    });
    expect(r.status).toBe(409);
    expect(r.body.message).toBe(
      'Organization globex has unlimited credits: there is nothing to buy',
    );
  });

  it('lets only the organization’s managers buy', async () => {
    expect((await buy(member)).status).toBe(403);
    expect((await buy(stranger)).status).toBe(404);
    expect((await buy(manager)).status).toBe(200);
  });

  it('pays once through the test checkout, back to success_url, crediting the ledger', async () => {
    const r = await buy(owner, { amount_in_cents: 1000 });
    expect(r.status).toBe(200);
    expect(r.body.checkout_url).toMatch(new RegExp(`^${here('/billing/checkout/')}[0-9a-f-]{36}$`));
    const id = checkoutId(r.body.checkout_url);
    const page = await call(s, 'GET', `${B}/checkouts/${id}`, manager);
    expect(page.body).toEqual({
      id,
      org_name: 'acme',
      credits: 10,
      status: 'open',
      success_url: here('/org-billing?tab=credits'),
      cancel_url: here('/org-billing'),
      test: true,
    });
    // Nobody outside the organization's managers sees or pays it.
    expect((await call(s, 'GET', `${B}/checkouts/${id}`, member)).status).toBe(403);
    expect((await call(s, 'POST', `${B}/checkouts/${id}/pay`, member)).status).toBe(403);
    expect((await call(s, 'POST', `${B}/checkouts/${id}/pay`, stranger)).status).toBe(404);
    expect(await balanceOf(s, admin)).toBe('5');

    const paid = await call(s, 'POST', `${B}/checkouts/${id}/pay`, owner);
    expect(paid.status).toBe(200);
    const back = new URL(paid.body.redirect_url);
    expect(back.pathname).toBe('/org-billing');
    expect(Object.fromEntries(back.searchParams)).toEqual({
      tab: 'credits',
      'buy-credits-status': 'success',
      credits: '10',
    });
    expect(await balanceOf(s, admin)).toBe('15');
    // A second click, or a reload, lands the same way and adds nothing.
    const again = await call(s, 'POST', `${B}/checkouts/${id}/pay`, owner);
    expect(again.body.redirect_url).toBe(paid.body.redirect_url);
    expect(await balanceOf(s, admin)).toBe('15');
    expect((await call(s, 'POST', `${B}/checkouts/${id}/cancel`, owner)).status).toBe(409);
    expect((await call(s, 'GET', `${B}/checkouts/${id}`, owner)).body.status).toBe('paid');

    const ledger = await call(s, 'GET', `${B}/orgs/acme/ledger?page=1&size=1`, manager);
    expect(ledger.body.total).toBe(2);
    expect(ledger.body.items).toEqual([
      {
        id: expect.any(Number),
        kind: 'purchase',
        credits: '10.0000',
        balance_after: '15.0000',
        user_name: owner.username,
        reference: id,
        created_at: expect.any(String),
      },
    ]);
    const { sum, rows } = await ledgerOf(s, owner);
    expect(rows.map((x) => x.kind)).toEqual(['set', 'purchase']);
    expect(sum).toBe(Number(await balanceOf(s, admin)));
  });

  it('cancels back to cancel_url, and a cancelled checkout cannot be paid', async () => {
    const id = checkoutId((await buy(owner)).body.checkout_url);
    const cancelled = await call(s, 'POST', `${B}/checkouts/${id}/cancel`, owner);
    const back = new URL(cancelled.body.redirect_url);
    expect(back.searchParams.get('buy-credits-status')).toBe('failure');
    expect(back.searchParams.has('credits')).toBe(false);
    const pay = await call(s, 'POST', `${B}/checkouts/${id}/pay`, owner);
    expect(pay.status).toBe(409);
    expect(pay.body.message).toBe('This checkout is already cancelled');
    expect(await balanceOf(s, admin)).toBe('15');
  });

  it('answers 404 for a checkout that does not exist, 400 for a malformed id', async () => {
    const none = '00000000-0000-4000-8000-000000000000';
    expect((await call(s, 'GET', `${B}/checkouts/${none}`, owner)).status).toBe(404);
    expect((await call(s, 'POST', `${B}/checkouts/x/pay`, owner)).status).toBe(400);
  });

  it('shows the ledger to managers only, paged, newest first', async () => {
    expect((await call(s, 'GET', `${B}/orgs/acme/ledger`, member)).status).toBe(403);
    expect((await call(s, 'GET', `${B}/orgs/acme/ledger`, stranger)).status).toBe(404);
    const page2 = await call(s, 'GET', `${B}/orgs/acme/ledger?page=2&size=1`, owner);
    expect(page2.body.items.map((i: { kind: string }) => i.kind)).toEqual(['set']);
    expect((await call(s, 'GET', `${B}/orgs/acme/ledger?size=0`, owner)).status).toBe(400);
  });
});

describe('buying credits, off', () => {
  let s: TestServer;
  afterAll(() => s.stop());
  it('offers no purchase and says to ask an administrator', async () => {
    s = await startTestServer({ ORRERY_PAYMENTS: 'off' });
    const { owner } = await tenancy(s);
    expect((await call(s, 'GET', `${B}/payments`, owner)).body).toEqual({ mode: 'off' });
    const r = await call(s, 'POST', `${B}/buy_credits`, owner, {
      org_name: 'acme',
      amount_in_cents: 1000,
      success_url: `${s.config.publicUrl}/org-billing`,
      cancel_url: `${s.config.publicUrl}/org-billing`,
    });
    expect(r.status).toBe(409);
    expect(r.body.message).toBe(
      'Purchases are not configured here. Ask an administrator for credits.',
    );
  });
});
