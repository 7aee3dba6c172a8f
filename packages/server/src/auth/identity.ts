import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.js';
import { publicJwks } from './keys.js';

/**
 * The embedded OpenID provider, mounted under `/oidc` when no external issuer is configured.
 */
export async function registerIdentity(app: FastifyInstance, ctx: AppContext) {
  if (ctx.config.oidc.external) return;
  app.get('/oidc/jwks', async () => publicJwks(ctx.keys));
}
