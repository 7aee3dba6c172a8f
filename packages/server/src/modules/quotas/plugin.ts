import type { FastifyPluginAsync } from 'fastify';
import type { ClusterOrgWire } from '@orrery/contract';
import type { AppContext } from '../../context.js';
import { quotaRoutes } from './routes.js';

/**
 * Resource quotas (docs/quotas.md) of organizations and projects. `linkOf` answers an
 * organization's link to a cluster after its quota changes: the admin area's, handed in by
 * app.ts so that this module, below admin, imports nothing of it.
 */
export const quotasModule =
  (
    ctx: AppContext,
    linkOf: (cluster: string, org: string) => Promise<ClusterOrgWire>,
  ): FastifyPluginAsync =>
  async (app) => {
    await app.register(quotaRoutes(ctx, linkOf));
  };
