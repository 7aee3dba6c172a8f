import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type Provider from 'oidc-provider';
import type { AppContext } from '../../context.js';
import {
  authenticate,
  dummyHash,
  signUp,
  type AccountDeps,
} from '../../modules/accounts/service.js';
import { formString, MESSAGES } from '../../modules/accounts/rules.js';
import { addressProvenByInvite } from '../../modules/invites/proof.js';
import { brandOf, homeOf, LIMITS, sendPage } from './forms.js';
import { loginPage, messagePage, signupPage } from './pages/screens.js';
import { retryText, signInLimits } from './sign-in-limits.js';

type Params = { Params: { uid: string } };
type Details = Awaited<ReturnType<Provider['interactionDetails']>>;

/**
 * The sign-in and sign-up screens of an authorization request. oidc-provider redirects to
 * `/oidc/interaction/:uid` with a cookie naming the interaction; these routes show the forms,
 * check them, and hand the signed-in account back to the provider, which then issues the code.
 */
export function interactionRoutes(
  ctx: AppContext,
  provider: () => Promise<Provider>,
  deps: AccountDeps,
) {
  const dummy = dummyHash();
  const { config } = ctx;
  const limits = signInLimits(ctx.db, config.signInLimits);

  /** The interaction of this browser, or null when its cookie is gone or names another one. */
  async function detailsOf(request: FastifyRequest<Params>, reply: FastifyReply) {
    try {
      const details = await (await provider()).interactionDetails(request.raw, reply.raw);
      return details.uid === request.params.uid ? details : null;
    } catch {
      return null;
    }
  }

  const expired = (request: FastifyRequest, reply: FastifyReply) => {
    const brand = brandOf(config, request);
    return sendPage(
      reply,
      messagePage(
        brand,
        'This sign-in has expired',
        'Sign-in requests are valid for one hour. Please start again.',
        { href: homeOf(config, request), label: `Back to ${brand.title}` },
      ),
      400,
    );
  };

  /** Completes the interaction and sends the browser back to the provider. */
  async function finish(
    request: FastifyRequest,
    reply: FastifyReply,
    result: Parameters<Provider['interactionResult']>[2],
  ) {
    const returnTo = await (
      await provider()
    ).interactionResult(request.raw, reply.raw, result, {
      mergeWithLastSubmission: false,
    });
    return reply.redirect(returnTo, 303);
  }

  const hintOf = (details: Details) =>
    typeof details.params.login_hint === 'string' ? details.params.login_hint : undefined;

  return async (app: FastifyInstance) => {
    app.get<Params>('/oidc/interaction/:uid', async (request, reply) => {
      const details = await detailsOf(request, reply);
      if (!details) return expired(request, reply);
      const brand = brandOf(config, request);
      if (details.prompt.name !== 'login') {
        // First-party grants are created without asking (provider.ts, autoGrant), so a consent
        // prompt only means the grant must be saved for this session: do it without a screen.
        return finish(request, reply, { consent: {} });
      }
      if (details.params.screen === 'signup') {
        return sendPage(
          reply,
          signupPage(brand, details.uid, { values: { email: hintOf(details) } }),
        );
      }
      return sendPage(reply, loginPage(brand, details.uid, { email: hintOf(details) }));
    });

    app.get<Params>('/oidc/interaction/:uid/login', async (request, reply) => {
      const details = await detailsOf(request, reply);
      if (!details) return expired(request, reply);
      return sendPage(
        reply,
        loginPage(brandOf(config, request), details.uid, { email: hintOf(details) }),
      );
    });

    app.post<Params>(
      '/oidc/interaction/:uid/login',
      { config: { rateLimit: LIMITS.signIn } },
      async (request, reply) => {
        const details = await detailsOf(request, reply);
        if (!details) return expired(request, reply);
        const email = formString(request.body, 'email').trim();
        const password = formString(request.body, 'password');
        const wait = await limits.signInWait(email, request.ip);
        if (wait) {
          const page = loginPage(brandOf(config, request), details.uid, {
            email,
            error: retryText(wait),
          });
          return sendPage(reply.header('retry-after', Math.ceil(wait / 1000)), page, 429);
        }
        const user = await authenticate(ctx.db, email, password, dummy);
        if (!user) {
          await limits.signInFailed(email, request.ip);
          const page = loginPage(brandOf(config, request), details.uid, {
            email,
            error: MESSAGES.wrongCredentials,
          });
          return sendPage(reply, page, 401);
        }
        request.log.info({ userId: user.id }, 'signed in');
        return finish(request, reply, { login: { accountId: user.id } });
      },
    );

    app.get<Params>('/oidc/interaction/:uid/signup', async (request, reply) => {
      const details = await detailsOf(request, reply);
      if (!details) return expired(request, reply);
      const page = signupPage(brandOf(config, request), details.uid, {
        values: { email: hintOf(details) },
      });
      return sendPage(reply, page);
    });

    app.post<Params>(
      '/oidc/interaction/:uid/signup',
      { config: { rateLimit: LIMITS.signUp } },
      async (request, reply) => {
        const details = await detailsOf(request, reply);
        if (!details) return expired(request, reply);
        const brand = brandOf(config, request);
        const input = {
          name: formString(request.body, 'name'),
          username: formString(request.body, 'username').trim(),
          email: formString(request.body, 'email').trim(),
          password: formString(request.body, 'password'),
        };
        // Whether an e-mail or user name is taken is an answer about someone's account: each
        // address gets a few of them per window, like failed sign-ins.
        const wait = await limits.takenWait(request.ip);
        if (wait) {
          const errors = { form: retryText(wait) };
          const page = signupPage(brand, details.uid, { values: input, errors });
          return sendPage(reply.header('retry-after', Math.ceil(wait / 1000)), page, 429);
        }
        const invite = { invite: details.params.invite, proof: details.params.invite_proof };
        const result = await signUp(deps, input, brand.title, (email) =>
          addressProvenByInvite(ctx, invite, email),
        );
        if ('errors' in result) {
          const e = result.errors;
          if (e.email === MESSAGES.emailTaken || e.username === MESSAGES.usernameTaken) {
            await limits.takenAnswered(request.ip);
          }
          const page = signupPage(brand, details.uid, { values: input, errors: result.errors });
          return sendPage(reply, page, 400);
        }
        request.log.info({ userId: result.user.id }, 'account created');
        return finish(request, reply, { login: { accountId: result.user.id } });
      },
    );
  };
}
