import type { FastifyPluginAsync } from 'fastify';
import type { AppContext } from '../../context.js';
import { secretRoutes } from './routes.js';
/** Secrets: a project's sealed values on the public secrets wire. */
export const secretsModule =
  (ctx: AppContext): FastifyPluginAsync =>
  async (app) => {
    await app.register(secretRoutes(ctx));
  };
