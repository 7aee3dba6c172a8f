import type { FastifyPluginAsync } from 'fastify';
import type { AppContext } from '../../context.js';
import { s3Routes, type S3Directory } from './routes.js';

/**
 * The embedded S3-compatible endpoint (docs/buckets.md), on the keys and buckets `directory`
 * finds: the buckets module's, handed in by app.ts.
 */
export const s3Module =
  (ctx: AppContext, directory: S3Directory): FastifyPluginAsync =>
  async (app) => {
    await app.register(s3Routes(ctx, directory));
  };
