import type { FastifyPluginAsync } from 'fastify';
import type { AppContext } from '../../context.js';
import { configRoutes } from './routes.js';
/** Configuration: `GET /api/v1/config`, the Apolo CLI's entry point and the console's first call. */
export const configModule =
  (ctx: AppContext): FastifyPluginAsync =>
  async (app) => {
    await app.register(configRoutes(ctx));
  };
