import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { HostLimits } from '@orrery/contract';
import type { AppContext } from '../../context.js';
import { ADMIN_API, errorResponses } from '../../http/route.js';
import type { RuntimeDriver } from '../../runtime/driver.js';
import { hostLimits, readPackageList, type HostFacts } from './limits.js';

/**
 * Administration > Host: what this installation cannot do, found once at start from what the
 * server detected (the runtime's refusal, the packages of the embedded defaults, the apps whose
 * programs are missing), for system administrators only.
 */
export const hostRoutes =
  (ctx: AppContext, driver: RuntimeDriver, apps: HostFacts['apps'] = []): FastifyPluginAsyncZod =>
  async (app) => {
    const found = hostLimits({
      list: readPackageList(),
      root: process.getuid?.() === 0,
      runtime: driver.name,
      runtimeRefusal: driver.refusal,
      runtimeNotIsolated: driver.notIsolated,
      registryUrl: ctx.config.registryUrl,
      apps,
    });
    // Once, at start: the operator reading the log learns where the list and its fixes are.
    if (found.limits.length > 0) {
      app.log.warn(
        `This installation cannot do everything it offers (${found.limits.map((l) => l.feature).join('; ')}): Administration > Host lists each reason and fix`,
      );
    }
    app.get(
      `${ADMIN_API}/host/limits`,
      {
        config: { access: 'system' },
        schema: { tags: ['admin'], response: { 200: HostLimits, ...errorResponses } },
      },
      async (): Promise<HostLimits> => found,
    );
  };
