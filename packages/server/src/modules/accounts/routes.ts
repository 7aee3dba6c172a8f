import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ProfileUpdate, User } from '@orrery/contract';
import type { AppContext } from '../../context.js';
import { requireUser } from '../../auth/principal.js';
import { conflict, HttpError, notFound } from '../../http/errors.js';
import { errorResponses } from '../../http/route.js';
import { updateUser, userByEmail, userByUsername } from '../users/store.js';
import { userWire } from '../users/service.js';
import { brandingFor } from '../config/branding.js';
import { RESEND_TEXTS, resendVerification, sendVerification } from './service.js';

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
        const body = request.body;
        const current = await userByUsername(ctx.db, caller.username);
        if (!current) throw notFound('User not found');
        const changes: Parameters<typeof updateUser>[2] = {};
        if (body.name !== undefined) changes.name = body.name;
        if (body.email !== undefined && body.email.toLowerCase() !== current.email.toLowerCase()) {
          const other = await userByEmail(ctx.db, body.email);
          if (other) throw conflict('This e-mail address is already in use', 'email');
          // A new address must be verified again.
          changes.email = body.email;
          changes.emailVerified = false;
        }
        if (body.terms_accepted === true && !current.termsAcceptedAt)
          changes.termsAcceptedAt = new Date();
        if (body.terms_accepted === false) changes.termsAcceptedAt = null;
        const updated = Object.keys(changes).length
          ? await updateUser(ctx.db, caller.id, changes)
          : current;
        if (changes.email) {
          const title = brandingFor(ctx.config, request.hostname).title;
          await sendVerification(
            { db: ctx.db, mailer: ctx.mailer, publicUrl: ctx.config.publicUrl, log: request.log },
            updated,
            title,
          );
        }
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
        const current = await userByUsername(ctx.db, caller.username);
        if (!current) throw notFound('User not found');
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
