import type { FastifyPluginAsync } from 'fastify';
import type { AppContext } from '../../context.js';
import { serviceAccountRoutes } from './routes-accounts.js';
import { tokenRoutes } from './routes.js';

/** Tokens: project tokens and service accounts (docs/tokens.md). */
export const tokensModule =
  (ctx: AppContext): FastifyPluginAsync =>
  async (app) => {
    await app.register(tokenRoutes(ctx));
    await app.register(serviceAccountRoutes(ctx));
  };
