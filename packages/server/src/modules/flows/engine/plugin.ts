import type { FastifyPluginAsync } from 'fastify';
import type { AppContext } from '../../../context.js';
import type { JobsService } from '../../jobs/service.js';
import { storageBackendOf } from '../../storage/routes.js';
import { BakeEngine, type EngineOptions } from './engine.js';
import { engineRoutes } from './routes.js';

/** The bake engine and its routes, on top of the jobs service. */
export const flowEngineModule =
  (ctx: AppContext, jobs: JobsService, opts: EngineOptions = {}): FastifyPluginAsync =>
  async (app) => {
    const engine = new BakeEngine({ ctx, jobs, log: app.log }, opts);
    await app.register(engineRoutes(ctx, engine, await storageBackendOf(ctx)));
    app.addHook('onReady', () => engine.start());
    app.addHook('onClose', () => engine.stop());
  };
