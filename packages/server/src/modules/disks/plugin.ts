import type { FastifyPluginAsync } from 'fastify';
import type { AppContext } from '../../context.js';
import { diskRoutes } from './routes.js';
import type { DiskHolders } from './service.js';

/** Disks: a project's persistent volumes, and the reaper of those past their lifespan. */
export const disksModule =
  (ctx: AppContext, holders: DiskHolders): FastifyPluginAsync =>
  async (app) => {
    await app.register(diskRoutes(ctx, holders));
  };
