import type { FastifyBaseLogger, FastifyPluginAsync } from 'fastify';
import type { AppContext } from '../../context.js';
import type { RuntimeDriver } from '../../runtime/driver.js';
import type { JobsService } from '../jobs/service.js';
import { loadSecretsKey } from '../secrets/key.js';
import { blob } from '../storage/errors.js';
import { storageBackendOf } from '../storage/routes.js';
import { Catalogue } from './catalogue.js';
import { appLogRoutes } from './routes-logs.js';
import { appRoutes } from './routes.js';
import type { AppRuntime } from './runner.js';
import { AppsService } from './service.js';
import { templateRoutes } from './routes-templates.js';
import { BUILT_IN_RUNNERS } from './templates/index.js';
import { InstanceWatcher, type WatcherOptions } from './watcher.js';

export interface AppsOptions extends WatcherOptions {
  /** Built-in templates from another folder (tests of the loader). */
  builtInDir?: string;
}

/**
 * The catalogue of app templates (built-in and the operator's) for the runtime `driver` runs
 * jobs on; a template left out is a warning in `log`.
 */
export const appCatalogue = (
  ctx: AppContext,
  driver: Pick<RuntimeDriver, 'name' | 'refusal' | 'jobRefusals'>,
  log: FastifyBaseLogger,
  opts: AppsOptions = {},
) =>
  Catalogue.load({
    runners: BUILT_IN_RUNNERS,
    runtime: driver.name as AppRuntime,
    refusal: driver.refusal,
    jobRefusals: driver.jobRefusals,
    operatorDir: ctx.config.appTemplatesDir,
    builtInDir: opts.builtInDir,
    warn: (m) => log.warn(m),
  });

/**
 * Apps: the catalogue's templates, the instances on top of the jobs service, and the watcher
 * that derives their states.
 */
export const appsModule =
  (
    ctx: AppContext,
    jobs: JobsService,
    catalogue: Catalogue,
    opts: AppsOptions = {},
  ): FastifyPluginAsync =>
  async (app) => {
    const sealKey = loadSecretsKey({
      configured: ctx.config.secretsKey,
      dataDir: ctx.config.dataDir,
    });
    const files = await storageBackendOf(ctx);
    const service = new AppsService(ctx, catalogue, jobs, {
      sealKey,
      // A refusal of the storage (a job's symlink where the app's home goes) is the caller's 400.
      makeDir: (key) => blob(() => files.mkdirs(key)),
      log: app.log,
    });
    const watcher = new InstanceWatcher(ctx, service, app.log, opts);
    await app.register(templateRoutes(catalogue));
    await app.register(appRoutes(service));
    await app.register(appLogRoutes(service));
    app.addHook('onReady', () => watcher.start());
    app.addHook('onClose', () => watcher.stop());
  };
