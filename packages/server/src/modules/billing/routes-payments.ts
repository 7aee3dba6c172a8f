import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  BuyCredits,
  CheckoutUrl,
  ErrorBody,
  LedgerEntry,
  PAYMENTS_TEXTS,
  PageQuery,
  Payments,
  RedirectUrl,
  TestCheckout,
  orgUri,
  paged,
  pageOf,
} from '@orrery/contract';
import type { AppContext } from '../../context.js';
import { requireUser } from '../../auth/principal.js';
import { authorize } from '../../http/access.js';
import { HttpError, conflict, notFound } from '../../http/errors.js';
import { errorResponses } from '../../http/route.js';
import { cancelTestCheckout, checkoutWire, findTestCheckout, payTestCheckout } from './checkout.js';
import { ledgerPage } from './service.js';
import { paymentsOf } from './payments.js';

export const BILLING_API = '/apis/billing/v1';
const tags = ['billing'];
const CheckoutParams = z.object({ id: z.string().uuid() });
const OrgParams = z.object({ org: z.string().min(1) });

/** Buying credits (Stripe or the test checkout) and the ledger of an organization's balance. */
export const paymentRoutes =
  (ctx: AppContext): FastifyPluginAsyncZod =>
  async (app) => {
    const payments = await paymentsOf(ctx);

    app.get(
      `${BILLING_API}/payments`,
      {
        config: { access: 'user' },
        schema: { tags, response: { 200: Payments, ...errorResponses } },
      },
      async () => ({ mode: payments.mode }),
    );

    app.post(
      `${BILLING_API}/buy_credits`,
      {
        config: {
          access: { uri: (r) => orgUri((r.body as BuyCredits).org_name), action: 'manage' },
        },
        schema: {
          tags,
          body: BuyCredits,
          response: { 200: CheckoutUrl, 422: ErrorBody, ...errorResponses },
        },
      },
      async (request) => ({
        checkout_url: await payments.start(request.body, requireUser(request).id, (m) =>
          request.log.warn(m),
        ),
      }),
    );

    /** A test checkout, for a manager of its organization only. */
    async function checkoutOf(request: Parameters<typeof requireUser>[0], id: string) {
      const row = await findTestCheckout(ctx.db, id);
      if (!row) throw notFound('Checkout not found');
      await authorize(request, orgUri(row.orgName), 'manage');
      return row;
    }

    app.get(
      `${BILLING_API}/checkouts/:id`,
      {
        config: { access: 'user' },
        schema: {
          tags,
          params: CheckoutParams,
          response: { 200: TestCheckout, ...errorResponses },
        },
      },
      async (request) => checkoutWire(await checkoutOf(request, request.params.id)),
    );

    app.post(
      `${BILLING_API}/checkouts/:id/pay`,
      {
        config: { access: 'user' },
        schema: { tags, params: CheckoutParams, response: { 200: RedirectUrl, ...errorResponses } },
      },
      async (request) => {
        const row = await checkoutOf(request, request.params.id);
        // A checkout opened in test mode pays nothing once the server runs otherwise.
        if (payments.mode !== 'test') throw conflict(PAYMENTS_TEXTS.off);
        return { redirect_url: await payTestCheckout(ctx.db, row, requireUser(request).id) };
      },
    );

    app.post(
      `${BILLING_API}/checkouts/:id/cancel`,
      {
        config: { access: 'user' },
        schema: { tags, params: CheckoutParams, response: { 200: RedirectUrl, ...errorResponses } },
      },
      async (request) => ({
        redirect_url: await cancelTestCheckout(
          ctx.db,
          await checkoutOf(request, request.params.id),
        ),
      }),
    );

    app.get(
      `${BILLING_API}/orgs/:org/ledger`,
      {
        config: {
          access: { uri: (r) => orgUri((r.params as { org: string }).org), action: 'manage' },
        },
        schema: {
          tags,
          params: OrgParams,
          querystring: PageQuery,
          response: { 200: paged(LedgerEntry), ...errorResponses },
        },
      },
      async (request) => {
        const { items, total } = await ledgerPage(ctx.db, request.params.org, request.query);
        return pageOf(items, total, request.query);
      },
    );

    const stripe = payments.stripe;
    if (!stripe) return;
    const { handleStripeEvent } = await import('./stripe.js');
    const secret = ctx.config.payments.stripe!.webhookSecret;
    // The signature covers the exact bytes Stripe sent: this scope alone keeps the body raw.
    await app.register(async (raw) => {
      raw.removeAllContentTypeParsers();
      raw.addContentTypeParser('*', { parseAs: 'buffer' }, (_req, body, done) => done(null, body));
      raw.post(
        `${BILLING_API}/stripe/webhook`,
        { config: { access: 'public' }, schema: { tags, hide: true } },
        async (request) => {
          const signature = request.headers['stripe-signature'];
          if (typeof signature !== 'string' || !Buffer.isBuffer(request.body)) {
            throw new HttpError('bad_request', 'A Stripe-Signature header and a body are needed');
          }
          let event;
          try {
            event = stripe.webhooks.constructEvent(request.body, signature, secret);
          } catch (e) {
            throw new HttpError(
              'bad_request',
              `Webhook signature refused: ${(e as Error).message}`,
            );
          }
          const outcome = await handleStripeEvent(ctx.db, event, (m) => request.log.warn(m));
          return { received: true, outcome };
        },
      );
    });
  };
