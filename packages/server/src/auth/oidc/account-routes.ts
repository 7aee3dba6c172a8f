import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';
import {
  requestPasswordReset,
  resetPassword,
  resetTokenUsable,
  verifyEmail,
  type AccountDeps,
} from '../../modules/accounts/service.js';
import { emailError, formString } from '../../modules/accounts/rules.js';
import { brandOf, homeOf, LIMITS, sendPage } from './forms.js';
import { forgotPage, messagePage, resetPage } from './pages/screens.js';

type TokenQuery = { Querystring: { token?: string } };
type ForgotQuery = { Querystring: { interaction?: string } };

/** The pages behind the links of account mails: e-mail verification and password reset. */
export function accountRoutes(ctx: AppContext, deps: AccountDeps) {
  const { config } = ctx;
  return async (app: FastifyInstance) => {
    app.get<TokenQuery>('/oidc/verify', async (request, reply) => {
      const brand = brandOf(config, request);
      const home = { href: homeOf(config, request), label: `Continue to ${brand.title}` };
      const user = await verifyEmail(ctx.db, request.query.token ?? '');
      if (!user) {
        const text = 'This verification link is invalid or has expired.';
        return sendPage(reply, messagePage(brand, 'Link expired', text, home), 400);
      }
      const text = `Thank you: ${user.email} is confirmed. You can now use all of ${brand.title}.`;
      return sendPage(reply, messagePage(brand, 'Your e-mail address is verified', text, home));
    });

    app.get<ForgotQuery>('/oidc/forgot', async (request, reply) =>
      sendPage(
        reply,
        forgotPage(brandOf(config, request), { interaction: request.query.interaction }),
      ),
    );

    app.post<ForgotQuery>(
      '/oidc/forgot',
      { config: { rateLimit: LIMITS.forgot } },
      async (request, reply) => {
        const brand = brandOf(config, request);
        const interaction = request.query.interaction;
        const email = formString(request.body, 'email').trim();
        const error = emailError(email);
        if (error) return sendPage(reply, forgotPage(brand, { interaction, email, error }), 400);
        // The same answer whether or not the address has an account.
        await requestPasswordReset(deps, email, brand.title).catch((err: Error) =>
          request.log.error({ err: { message: err.message } }, 'reset mail failed'),
        );
        return sendPage(reply, forgotPage(brand, { interaction, sent: true }));
      },
    );

    const invalidLink = (request: Parameters<typeof brandOf>[1]) => {
      const brand = brandOf(config, request);
      return messagePage(
        brand,
        'Link expired',
        'This password reset link is invalid, has expired or was already used.',
        { href: '/oidc/forgot', label: 'Ask for a new link' },
      );
    };

    app.get<TokenQuery>('/oidc/reset', async (request, reply) => {
      const token = request.query.token ?? '';
      if (!(await resetTokenUsable(ctx.db, token))) {
        return sendPage(reply, invalidLink(request), 400);
      }
      return sendPage(reply, resetPage(brandOf(config, request), token));
    });

    app.post('/oidc/reset', { config: { rateLimit: LIMITS.reset } }, async (request, reply) => {
      const brand = brandOf(config, request);
      const token = formString(request.body, 'token');
      const result = await resetPassword(ctx.db, token, formString(request.body, 'password'));
      if (result === 'invalid') return sendPage(reply, invalidLink(request), 400);
      if (result !== 'ok') return sendPage(reply, resetPage(brand, token, result.error), 400);
      const home = { href: homeOf(config, request), label: 'Sign in' };
      const text = 'Your password has been changed. Sign in with your new password.';
      return sendPage(reply, messagePage(brand, 'Password changed', text, home));
    });
  };
}
