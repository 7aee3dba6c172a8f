import type { FastifyPluginAsync } from 'fastify';
import type { AppContext } from '../../context.js';
import { bucketRoutes } from './routes.js';
/** Buckets: buckets, their objects and their persistent credentials (docs/buckets.md). */
export const bucketsModule =
  (ctx: AppContext): FastifyPluginAsync =>
  async (app) => {
    await app.register(bucketRoutes(ctx));
  };
