import type { FastifyPluginAsync } from 'fastify';
import type { AppContext } from '../../context.js';
import type { RuntimeDriver } from '../../runtime/driver.js';
import type { HostFacts } from './limits.js';
import { hostRoutes } from './routes.js';

/**
 * Administration > Host: what this installation cannot do. `apps` are the app templates whose
 * programs this machine lacks, from the apps module's catalogue, handed in by app.ts.
 */
export const hostModule =
  (ctx: AppContext, driver: RuntimeDriver, apps: HostFacts['apps']): FastifyPluginAsync =>
  async (app) => {
    await app.register(hostRoutes(ctx, driver, apps));
  };
