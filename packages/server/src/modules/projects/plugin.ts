import type { FastifyPluginAsync } from 'fastify';
import type { AppContext } from '../../context.js';
import { projectRoutes } from './routes.js';
/** Projects: the places of an organization that hold its work. */
export const projectsModule =
  (ctx: AppContext): FastifyPluginAsync =>
  async (app) => {
    await app.register(projectRoutes(ctx));
  };
