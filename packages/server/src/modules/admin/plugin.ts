import type { FastifyPluginAsync } from 'fastify';
import type { AppContext } from '../../context.js';
import type { LocalGpus } from '../../runtime/machine.js';
import { adminReadRoutes } from './routes-reads.js';
import { capacityRoutes } from './routes-capacity.js';
import { adminRoutes } from './routes.js';

/**
 * Administration (docs/admin.md): system users, clusters and their organizations, resource
 * presets and node pools (`machine`: this server's GPUs, for its pools), and the reads of
 * `apolo admin` that members may make.
 */
export const adminModule =
  (ctx: AppContext, machine: LocalGpus): FastifyPluginAsync =>
  async (app) => {
    await app.register(adminRoutes(ctx));
    await app.register(capacityRoutes(ctx, machine));
    await app.register(adminReadRoutes(ctx));
  };
