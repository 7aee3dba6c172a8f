import type { FastifyPluginAsync } from 'fastify';
import type { AppContext } from '../../context.js';
import { userRoutes } from './routes.js';
/** Users: the platform's users as the Apolo wire names them. */
export const usersModule =
  (ctx: AppContext): FastifyPluginAsync =>
  async (app) => {
    await app.register(userRoutes(ctx));
  };
