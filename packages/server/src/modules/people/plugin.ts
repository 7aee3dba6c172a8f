import type { FastifyPluginAsync } from 'fastify';
import type { AppContext } from '../../context.js';
import { peopleRoutes } from './routes.js';
/** People: the members of organizations, clusters and projects, and their roles. */
export const peopleModule =
  (ctx: AppContext): FastifyPluginAsync =>
  async (app) => {
    await app.register(peopleRoutes(ctx));
  };
