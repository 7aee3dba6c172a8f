import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppContext } from '../context.js';
import { userByUsername } from '../modules/users/store.js';
import { principalOf } from './principal-hook.js';

/**
 * A link opened in a new browser tab or a media element cannot set a header, so a GET that
 * `applies` to may carry the bearer token in `?token=` instead. Only read links: the logger
 * redacts the parameter (observability/redact.ts). Registered in the plugin that needs it.
 */
export function acceptQueryToken(
  app: FastifyInstance,
  ctx: Pick<AppContext, 'db' | 'verifier'>,
  applies: (request: FastifyRequest) => boolean,
) {
  app.addHook('onRequest', async (request) => {
    const token = (request.query as { token?: unknown }).token;
    if (request.principal || request.method !== 'GET' || typeof token !== 'string') return;
    if (!applies(request)) return;
    const claims = await ctx.verifier.verify(token);
    const user = claims && (await userByUsername(ctx.db, claims.username));
    if (user) request.principal = principalOf(user);
  });
}
