import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ProfileUpdate, User } from '@orrery/contract';
import type { AppContext } from '../../context.js';
import { requireUser } from '../../auth/principal.js';
import { conflict, HttpError, notFound } from '../../http/errors.js';
import { errorResponses } from '../../http/route.js';
import { userWire } from '../users/service.js';
import { brandingFor } from '../config/branding.js';
import { ownAccount, RESEND_TEXTS, resendVerification, updateProfile } from './service.js';

const Params = z.object({ name: z.string().min(1) });

/** The caller's own account: its profile and address, and the mail that verifies the address. */
export const accountRoutes =
  (ctx: AppContext): FastifyPluginAsyncZod =>
  async (app) => {
    app.put(
      '/api/v1/users/:name/profile',
      {
        config: { access: 'user' },
        schema: {
          tags: ['users'],
          params: Params,
          body: ProfileUpdate,
          response: { 200: User, ...errorResponses },
        },
      },
      async (request) => {
        const caller = requireUser(request);
        if (caller.username !== request.params.name) throw notFound('User not found');
        const updated = await updateProfile(
          { db: ctx.db, mailer: ctx.mailer, publicUrl: ctx.config.publicUrl, log: request.log },
          caller.username,
          request.body,
          brandingFor(ctx.config, request.hostname).title,
        );
        return userWire(ctx.db, updated, ['system_role']);
      },
    );

    // Only for oneself: the mail goes to the caller's own address, from the outbox (mail/).
    app.post(
      '/api/v1/users/:name/verification-mail',
      {
        config: { access: 'user' },
        schema: {
          tags: ['users'],
          params: Params,
          response: { 204: z.null(), ...errorResponses },
        },
      },
      async (request, reply) => {
        const caller = requireUser(request);
        if (caller.username !== request.params.name) throw notFound('User not found');
        // Verification links lead to the built-in provider's pages, absent with another issuer.
        if (ctx.config.oidc.external) throw conflict(RESEND_TEXTS.external);
        const current = await ownAccount(ctx.db, caller.username);
        const title = brandingFor(ctx.config, request.hostname).title;
        const result = await resendVerification(
          { db: ctx.db, mailer: ctx.mailer, publicUrl: ctx.config.publicUrl, log: request.log },
          current,
          title,
        );
        if (result === 'verified') throw conflict(RESEND_TEXTS.verified);
        if (result !== 'sent') {
          reply.header('retry-after', Math.ceil(result.retryAfterMs / 1000));
          throw new HttpError('rate_limited', RESEND_TEXTS.tooMany);
        }
        return reply.status(204).send(null);
      },
    );
  };
