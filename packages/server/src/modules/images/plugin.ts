import type { FastifyPluginAsync } from 'fastify';
import type { AppContext } from '../../context.js';
import { registryRoutes } from './routes-registry.js';
import { imageRoutes } from './routes.js';
import { upstreamFor } from './supervisor.js';
import type { Upstream } from './upstream.js';

/**
 * Images: the `/v2/` registry front and the console's `/api/v1/images`. The registry is
 * ORRERY_REGISTRY_URL, or Debian's docker-registry supervised by this module; tests hand in
 * their own `upstream`.
 */
export const imagesModule =
  (ctx: AppContext, opts: { upstream?: Upstream } = {}): FastifyPluginAsync =>
  async (app) => {
    const upstream = opts.upstream ?? upstreamFor(ctx.config, app.log);
    app.addHook('onClose', () => upstream.stop());
    await app.register(registryRoutes(ctx, upstream));
    await app.register(imageRoutes(ctx, upstream));
  };
