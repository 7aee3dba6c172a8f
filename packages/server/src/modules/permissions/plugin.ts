import type { FastifyPluginAsync } from 'fastify';
import type { AppContext } from '../../context.js';
import type { Refinement } from './check.js';
import { permissionRoutes } from './routes.js';

/**
 * Permissions: grants on resource URIs and the check of them. `refinements` are the areas' own
 * rules (a disk's owner, an organization's admins), handed in by app.ts so that this module,
 * below the areas, imports none of them.
 */
export const permissionsModule =
  (ctx: AppContext, refinements: Refinement[]): FastifyPluginAsync =>
  async (app) => {
    await app.register(permissionRoutes(ctx, refinements));
  };
