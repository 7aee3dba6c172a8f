import type { FastifyPluginAsync } from 'fastify';
import type { AppContext } from '../../context.js';
import { accountRoutes } from './routes.js';
/** Accounts: the caller's own account, its profile and address, and the mail that verifies it. */
export const accountsModule =
  (ctx: AppContext): FastifyPluginAsync =>
  async (app) => {
    await app.register(accountRoutes(ctx));
  };
