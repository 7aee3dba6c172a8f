import type { FastifyPluginAsync } from 'fastify';
import type { AppContext } from '../../context.js';
import type { JobsService } from '../jobs/service.js';
import { flowEngineModule } from './engine/plugin.js';
import type { EngineOptions } from './engine/engine.js';
import { attemptRoutes } from './routes-attempts.js';
import { bakeImageRoutes } from './routes-bake-images.js';
import { bakeRoutes } from './routes-bakes.js';
import { cacheEntryRoutes } from './routes-cache-entries.js';
import { liveJobRoutes } from './routes-live-jobs.js';
import { projectRoutes } from './routes-projects.js';
import { taskRoutes } from './routes-tasks.js';

/** What tests may tune: the bake engine's intervals; the flow API itself has nothing to tune. */
export type FlowsOptions = EngineOptions;

/**
 * Flows: the flow API the `apolo-flow` client runs on (docs/flows.md), on the jobs service
 * that runs the tasks of the bakes, and Orrery's own bake engine.
 */
export const flowsModule =
  (ctx: AppContext, jobs: JobsService, opts: FlowsOptions = {}): FastifyPluginAsync =>
  async (app) => {
    await app.register(projectRoutes(ctx));
    await app.register(liveJobRoutes(ctx));
    await app.register(bakeRoutes(ctx));
    await app.register(attemptRoutes(ctx));
    await app.register(taskRoutes(ctx));
    await app.register(cacheEntryRoutes(ctx));
    await app.register(bakeImageRoutes(ctx));
    await app.register(flowEngineModule(ctx, jobs, opts));
  };
