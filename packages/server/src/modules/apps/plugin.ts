import type { FastifyPluginAsync } from 'fastify';
import type { AppContext } from '../../context.js';
import type { JobsService } from '../jobs/service.js';
import { loadSecretsKey } from '../secrets/key.js';
import { storageBackendOf } from '../storage/routes.js';
import { Catalogue } from './catalogue.js';
import { hostRoutes } from '../host/routes.js';
import { appLogRoutes } from './logs.js';
import { appRoutes } from './routes.js';
import type { AppRuntime } from './runner.js';
import { AppsService } from './service.js';
import { templateRoutes } from './template-routes.js';
import { BUILT_IN_RUNNERS } from './templates/index.js';
import { InstanceWatcher, type WatcherOptions } from './watcher.js';

export interface AppsOptions extends WatcherOptions {
  /** Built-in templates from another folder (tests of the loader). */
  builtInDir?: string;
}

/**
 * Apps: the catalogue (built-in and operator templates), the instances on top of the jobs
 * service, and the watcher that derives their states.
 */
export const appsModule =
  (ctx: AppContext, jobs: JobsService, opts: AppsOptions = {}): FastifyPluginAsync =>
  async (app) => {
    const catalogue = Catalogue.load({
      runners: BUILT_IN_RUNNERS,
      runtime: jobs.driver.name as AppRuntime,
      refusal: jobs.driver.refusal,
      jobRefusals: jobs.driver.jobRefusals,
      operatorDir: ctx.config.appTemplatesDir,
      builtInDir: opts.builtInDir,
      warn: (m) => app.log.warn(m),
    });
    const sealKey = loadSecretsKey({
      configured: ctx.config.secretsKey,
      dataDir: ctx.config.dataDir,
    });
    const files = await storageBackendOf(ctx);
    const service = new AppsService(ctx, catalogue, jobs, {
      sealKey,
      makeDir: (key) => files.mkdirs(key),
      log: app.log,
    });
    const watcher = new InstanceWatcher(ctx, service, app.log, opts);
    await app.register(templateRoutes(catalogue));
    // Registered here: what the host cannot do includes the apps whose programs it lacks.
    await app.register(hostRoutes(ctx, jobs.driver, catalogue.missingPrograms()));
    await app.register(appRoutes(service));
    await app.register(appLogRoutes(service));
    app.addHook('onReady', () => watcher.start());
    app.addHook('onClose', () => watcher.stop());
  };
