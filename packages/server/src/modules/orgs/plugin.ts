import type { FastifyPluginAsync } from 'fastify';
import type { AppContext } from '../../context.js';
import { orgRoutes } from './routes.js';
/** Organizations: made, listed, renamed and deleted by their managers. */
export const orgsModule =
  (ctx: AppContext): FastifyPluginAsync =>
  async (app) => {
    await app.register(orgRoutes(ctx));
  };
