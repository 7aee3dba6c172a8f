import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.js';
import { whileLeading } from '../db/advisory-locks.js';
import { lazily } from '../lazy.js';
import { pruneRateLimits } from './oidc/rate-limit-store.js';

const PRUNE_EVERY_MS = 60 * 60 * 1000;

/**
 * The embedded OpenID provider, mounted under `/oidc` when no external issuer is configured:
 * oidc-provider for the protocol endpoints, plus our own server-rendered pages for sign-in,
 * sign-up, e-mail verification and password reset. Loaded lazily, so a deployment with an
 * external issuer never loads it; the provider itself (oidc-provider and the Koa it runs on, a
 * tenth of a start) is made by the first request that needs it.
 */
export async function registerIdentity(app: FastifyInstance, ctx: AppContext) {
  if (ctx.config.oidc.external) return;
  const [{ mountProvider }, { installForms }, interactions, accounts, adapter] = await Promise.all([
    import('./oidc/mount.js'),
    import('./oidc/forms.js'),
    import('./oidc/interactions.js'),
    import('./oidc/account-routes.js'),
    import('./oidc/store.js'),
  ]);
  const provider = lazily(async () => {
    const { createProvider } = await import('./oidc/provider.js');
    return createProvider(ctx, app.log);
  });
  const deps = { db: ctx.db, mailer: ctx.mailer, publicUrl: ctx.config.publicUrl, log: app.log };

  await app.register(mountProvider(provider, ctx.config.trustedProxies));
  await app.register(async (forms) => {
    await installForms(forms, ctx.config, ctx.db);
    await forms.register(interactions.interactionRoutes(ctx, provider, deps));
    await forms.register(accounts.accountRoutes(ctx, deps));
  });

  // Expired sessions, codes, tokens and rate-limit windows are invisible to the provider and the
  // limits; this reclaims their rows, on one replica (db/advisory-locks.ts).
  const prune = () =>
    whileLeading(ctx.database.loops, 'oidc-prune', async () => {
      await adapter.pruneExpired(ctx.db);
      await pruneRateLimits(ctx.db);
    }).catch((err: Error) => app.log.warn({ err }, 'oidc prune failed'));
  const timer = setInterval(prune, PRUNE_EVERY_MS);
  timer.unref();
  app.addHook('onClose', async () => clearInterval(timer));
}
