import { resolve, sep } from 'node:path';
import type { FastifyPluginAsync } from 'fastify';
import type { AppContext } from '../../context.js';
import type { RuntimeDriver } from '../../runtime/driver.js';
import { createDriver } from '../../runtime/select.js';
import { loadSecretsKey } from '../secrets/key.js';
import { registerIngress } from './routes-ingress.js';
import { cookieKeyOf } from './ingress-auth.js';
import { ingressTicketRoutes } from './routes-ingress-ticket.js';
import { MetricsHistory } from './metrics-history.js';
import { monitoringRoutes } from './routes-monitoring.js';
import { jobRoutes } from './routes.js';
import { JobsService, type JobsServiceOptions } from './service.js';
import { statusSocketRoutes } from './status-socket.js';

export interface JobsOptions extends JobsServiceOptions {
  /** A driver made by the caller (tests); otherwise ORRERY_RUNTIME picks one. */
  driver?: RuntimeDriver;
  /** How often running jobs are looked for to record their load (tests shorten it). */
  metricsScanMs?: number;
}

/** Modules built on the jobs service (apps), registered with it. */
export type OnJobs = (service: JobsService) => FastifyPluginAsync;

/** Storage folders are bind-mounted from the filesystem backend; on S3 there is no host path. */
const storageDirOf = (ctx: AppContext) => (segments: string[]) => {
  if (ctx.config.s3?.storageBucket) return null;
  const root = resolve(ctx.config.dataDir, 'storage');
  const dir = resolve(root, ...segments);
  if (dir !== root && !dir.startsWith(root + sep)) return null;
  return dir;
};

/** Jobs: the service with its runtime, the jobs and monitoring APIs, and the HTTP ingress. */
export const jobsModule =
  (ctx: AppContext, opts: JobsOptions = {}, dependents: OnJobs[] = []): FastifyPluginAsync =>
  async (app) => {
    const driver = opts.driver ?? (await createDriver(ctx.config, app.log));
    const sealKey = loadSecretsKey({
      configured: ctx.config.secretsKey,
      dataDir: ctx.config.dataDir,
    });
    const service = new JobsService(
      ctx,
      driver,
      { sealKey, storageDir: storageDirOf(ctx) },
      app.log,
      opts,
    );
    await app.register(jobRoutes(ctx, service));
    const history = new MetricsHistory(ctx.db, driver, app.log, opts.metricsScanMs);
    await app.register(monitoringRoutes(ctx, service, history));
    await app.register(statusSocketRoutes(ctx, service));
    await registerIngress(app, ctx, service, cookieKeyOf(sealKey));
    await app.register(ingressTicketRoutes(ctx));
    for (const d of dependents) await app.register(d(service));
    app.addHook('onReady', async () => {
      // Said before the wait: a runtime slow to answer then explains a start that times out.
      app.log.info(
        `Waiting for the ${driver.name} runtime: its jobs, reconciled with the database's`,
      );
      await service.start();
      history.start();
    });
    app.addHook('onClose', async () => {
      await history.stop();
      await service.stop();
      await driver.close();
    });
  };
