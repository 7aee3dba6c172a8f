import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer, type TestUser } from '../../test/harness.js';
import { call, joinOrg, tenancy } from '../../test/fixtures.js';
import { balanceOf, ledgerOf } from '../../test/billing.js';

const B = '/apis/billing/v1';
const WEBHOOK_SECRET = 'whsec_test_orrery';

interface Recorded {
  path: string;
  form: URLSearchParams;
  headers: Record<string, string | string[] | undefined>;
}

/**
 * A stand-in for api.stripe.com on loopback (Stripe's own stripe-mock cannot be installed here
 * without a network): it answers `POST /v1/checkout/sessions` as Stripe does, with the session's
 * hosted URL, and records what the SDK sent.
 */
async function stripeStandIn() {
  const requests: Recorded[] = [];
  const state = { refusal: null as { status: number; type: string; message: string } | null };
  let n = 0;
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      requests.push({ path: req.url ?? '', form: new URLSearchParams(body), headers: req.headers });
      res.setHeader('content-type', 'application/json');
      if (state.refusal) {
        res.statusCode = state.refusal.status;
        const { type, message } = state.refusal;
        res.end(JSON.stringify({ error: { type, message } }));
      } else if (req.method === 'POST' && req.url === '/v1/checkout/sessions') {
        n += 1;
        const id = `cs_test_standin_${n}`;
        res.end(
          JSON.stringify({
            id,
            object: 'checkout.session',
            url: `https://checkout.stripe.test/c/pay/${id}`,
          }),
        );
      } else {
        res.statusCode = 404;
        res.end(
          JSON.stringify({ error: { type: 'invalid_request_error', message: 'No such route' } }),
        );
      }
    });
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    state,
    close: () => new Promise((ok) => server.close(ok)),
  };
}

/** A Checkout Session event as Stripe sends it, for the fields the webhook reads. */
function sessionEvent(
  id: string,
  type: string,
  session: { id: string; org: string; credits: number; amount_total?: number; paid?: boolean },
) {
  return {
    id,
    object: 'event',
    type,
    created: Math.floor(Date.now() / 1000),
    data: {
      object: {
        id: session.id,
        object: 'checkout.session',
        amount_total: session.amount_total ?? session.credits * 100,
        currency: 'usd',
        payment_status: session.paid === false ? 'unpaid' : 'paid',
        client_reference_id: session.org,
        metadata: { org_name: session.org, credits: String(session.credits) },
      },
    },
  };
}

describe('buying credits with Stripe (SDK against a loopback stand-in)', () => {
  let api: Awaited<ReturnType<typeof stripeStandIn>>;
  let s: TestServer;
  let admin: TestUser;
  let owner: TestUser;
  const sdk = new Stripe('sk_test_unused');

  /** Posts a body to the webhook as Stripe does, signed unless a header is given. */
  const deliver = (event: object, o: { header?: string; timestamp?: number } = {}) => {
    const payload = JSON.stringify(event);
    const header =
      o.header ??
      sdk.webhooks.generateTestHeaderString({
        payload,
        secret: WEBHOOK_SECRET,
        ...(o.timestamp ? { timestamp: o.timestamp } : {}),
      });
    return s.app.inject({
      method: 'POST',
      url: `${B}/stripe/webhook`,
      headers: { 'content-type': 'application/json; charset=utf-8', 'stripe-signature': header },
      payload,
    });
  };

  beforeAll(async () => {
    api = await stripeStandIn();
    s = await startTestServer({
      HOST: '0.0.0.0',
      STRIPE_SECRET_KEY: 'sk_test_orrery',
      STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
      ORRERY_STRIPE_API_URL: api.url,
    });
    admin = await s.user({ systemRole: 'admin' });
    ({ owner } = await tenancy(s));
    await call(s, 'PATCH', '/apis/admin/v1/orgs/acme/balance', admin, { credits: '5' });
  });
  afterAll(async () => {
    await s.stop();
    await api.close();
  });

  it('opens a Checkout Session for credits × 100 cents and answers its hosted URL', async () => {
    expect((await call(s, 'GET', `${B}/payments`, owner)).body).toEqual({ mode: 'stripe' });
    const r = await call(s, 'POST', `${B}/buy_credits`, owner, {
      org_name: 'acme',
      amount_in_cents: 2500,
      success_url: `${s.config.publicUrl}/org-billing`,
      cancel_url: `${s.config.publicUrl}/org-billing`,
    });
    expect(r.status).toBe(200);
    expect(r.body.checkout_url).toBe('https://checkout.stripe.test/c/pay/cs_test_standin_1');
    const sent = api.requests.at(-1)!;
    expect(sent.path).toBe('/v1/checkout/sessions');
    expect(sent.headers.authorization).toBe('Bearer sk_test_orrery');
    expect(sent.headers['idempotency-key']).toMatch(/^orrery-buy-/);
    const f = Object.fromEntries(sent.form);
    expect(f).toMatchObject({
      mode: 'payment',
      'line_items[0][quantity]': '25',
      'line_items[0][price_data][unit_amount]': '100',
      'line_items[0][price_data][currency]': 'usd',
      'metadata[org_name]': 'acme',
      'metadata[credits]': '25',
      'metadata[user_id]': owner.id,
      client_reference_id: 'acme',
    });
    expect(new URL(f.success_url).searchParams.toString()).toBe(
      'buy-credits-status=success&credits=25',
    );
    expect(new URL(f.cancel_url).searchParams.toString()).toBe('buy-credits-status=failure');
  });

  it('refuses a bad or stale signature with 400 and changes nothing', async () => {
    const event = sessionEvent('evt_bad', 'checkout.session.completed', {
      id: 'cs_bad',
      org: 'acme',
      credits: 100,
    });
    const forged = await deliver(event, { header: `t=${Math.floor(Date.now() / 1000)},v1=00ff` });
    expect(forged.statusCode).toBe(400);
    expect(forged.json().message).toContain('signature');
    // Signed, then tampered with: the raw bytes no longer match.
    const payload = JSON.stringify(event);
    const header = sdk.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET });
    const tampered = await s.app.inject({
      method: 'POST',
      url: `${B}/stripe/webhook`,
      headers: { 'content-type': 'application/json', 'stripe-signature': header },
      payload: payload.replace('"credits":"100"', '"credits":"999"'),
    });
    expect(tampered.statusCode).toBe(400);
    const stale = await deliver(event, { timestamp: Math.floor(Date.now() / 1000) - 600 });
    expect(stale.statusCode).toBe(400);
    expect(stale.json().message).toContain('tolerance');
    const noHeader = await s.app.inject({
      method: 'POST',
      url: `${B}/stripe/webhook`,
      headers: { 'content-type': 'application/json' },
      payload,
    });
    expect(noHeader.statusCode).toBe(400);
    expect(await balanceOf(s, admin)).toBe('5');
    // A refused event was not recorded: its genuine delivery still credits.
    expect((await deliver(event)).json()).toEqual({ received: true, outcome: 'credited' });
    expect(await balanceOf(s, admin)).toBe('105');
  });

  it('credits a paid session once: a replay or a second event type adds nothing', async () => {
    const session = { id: 'cs_once', org: 'acme', credits: 10 };
    const completed = sessionEvent('evt_once_1', 'checkout.session.completed', session);
    expect((await deliver(completed)).json().outcome).toBe('credited');
    expect((await deliver(completed)).json().outcome).toBe('duplicate');
    const second = sessionEvent('evt_once_2', 'checkout.session.async_payment_succeeded', session);
    expect((await deliver(second)).json().outcome).toBe('duplicate');
    expect(await balanceOf(s, admin)).toBe('115');
  });

  it('credits once when the same session’s events arrive at the same time', async () => {
    const session = { id: 'cs_race', org: 'acme', credits: 1 };
    const completed = sessionEvent('evt_race_1', 'checkout.session.completed', session);
    const succeeded = sessionEvent(
      'evt_race_2',
      'checkout.session.async_payment_succeeded',
      session,
    );
    const answers = await Promise.all(
      [completed, completed, succeeded, completed, succeeded].map((e) => deliver(e)),
    );
    expect(answers.map((a) => a.statusCode)).toEqual([200, 200, 200, 200, 200]);
    expect(answers.filter((a) => a.json().outcome === 'credited')).toHaveLength(1);
    expect(await balanceOf(s, admin)).toBe('116');
  });

  it('waits for a delayed payment, then credits it', async () => {
    const session = { id: 'cs_later', org: 'acme', credits: 3 };
    const pending = sessionEvent('evt_later_1', 'checkout.session.completed', {
      ...session,
      paid: false,
    });
    expect((await deliver(pending)).json().outcome).toBe('ignored');
    expect(await balanceOf(s, admin)).toBe('116');
    const failed = sessionEvent('evt_later_f', 'checkout.session.async_payment_failed', session);
    expect((await deliver(failed)).json().outcome).toBe('ignored');
    const ok = sessionEvent('evt_later_2', 'checkout.session.async_payment_succeeded', session);
    expect((await deliver(ok)).json().outcome).toBe('credited');
    expect(await balanceOf(s, admin)).toBe('119');
  });

  it('takes the amount from the session: credits not paid for are not added', async () => {
    const cheap = sessionEvent('evt_cheap', 'checkout.session.completed', {
      id: 'cs_cheap',
      org: 'acme',
      credits: 1000,
      amount_total: 100,
    });
    expect((await deliver(cheap)).json().outcome).toBe('ignored');
    expect(await balanceOf(s, admin)).toBe('119');
  });

  it('keeps a ledger whose rows add up to the balance', async () => {
    const { rows, sum } = await ledgerOf(s, owner);
    expect(rows.map((r) => [r.kind, r.reference])).toEqual([
      ['set', 'administrator'],
      ['purchase', 'cs_bad'],
      ['purchase', 'cs_once'],
      ['purchase', 'cs_race'],
      ['purchase', 'cs_later'],
    ]);
    expect(sum).toBe(Number(await balanceOf(s, admin)));
  });

  it.each([
    [
      'answers Stripe’s refusal of the request',
      { status: 400, type: 'invalid_request_error', message: 'Amount too small.' },
      'Stripe did not open a checkout: Amount too small.',
    ],
    [
      'hides a bad key behind a message for the administrator',
      {
        status: 401,
        type: 'authentication_error',
        message: 'Invalid API Key provided: sk_****rery',
      },
      'The payment provider could not open a checkout. Try again later, or ask an administrator if this persists.',
    ],
  ])('%s', async (_name, refusal, message) => {
    const manager = await joinOrg(s, await s.user(), 'manager');
    api.state.refusal = refusal;
    try {
      const r = await call(s, 'POST', `${B}/buy_credits`, manager, {
        org_name: 'acme',
        amount_in_cents: 100,
        success_url: `${s.config.publicUrl}/org-billing`,
        cancel_url: `${s.config.publicUrl}/org-billing`,
      });
      expect(r.status).toBe(422);
      expect(r.body.message).toBe(message);
    } finally {
      api.state.refusal = null;
    }
    expect(await balanceOf(s, admin)).toBe('119');
  });
});
