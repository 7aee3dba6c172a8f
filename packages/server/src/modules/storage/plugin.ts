import type { FastifyPluginAsync } from 'fastify';
import type { AppContext } from '../../context.js';
import { storageRoutes } from './routes.js';
/** Storage: the files of every project (docs/files.md). */
export const storageModule =
  (ctx: AppContext): FastifyPluginAsync =>
  async (app) => {
    await app.register(storageRoutes(ctx));
  };
