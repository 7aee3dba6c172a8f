import type { FastifyPluginAsync } from 'fastify';
import type { AppContext } from '../../context.js';
import { storageBackendOf } from '../storage/routes.js';
import { POOL_SAMPLE_MS, startPoolSampler, type PoolsOf } from './reports-sampler.js';
import { startStorageSampler, STORAGE_CHECK_MS } from './storage-sampler.js';
import { startDiskSampler } from './disk-sampler.js';
import { startBudgetChecker } from './budgets.js';
import { reportRoutes } from './routes-reports.js';
import { budgetRoutes } from './routes-budgets.js';
import { paymentRoutes } from './routes-payments.js';
import { usageRoutes } from './routes-usage.js';

export interface BillingOptions {
  /** How often storage is looked at (tests: Infinity, and they sample by hand). */
  storageCheckMs?: number;
  /** How often budgets are checked (tests: Infinity, and they check by hand); else the config's. */
  budgetCheckMs?: number;
  /** How often node pools are sampled for the reports (tests: Infinity, sampled by hand). */
  poolSampleMs?: number;
}

/**
 * Billing (docs/billing.md): payments, usage, budgets and reports, and what runs beside the
 * requests: storage sampled from the file backend, disks, budgets checked, node pools' use
 * recorded (`poolsOf`: the admin area's view of a cluster's pools, handed in by app.ts).
 */
export const billingModule =
  (ctx: AppContext, poolsOf: PoolsOf, opts: BillingOptions = {}): FastifyPluginAsync =>
  async (app) => {
    const files = await storageBackendOf(ctx);
    let stops: (() => Promise<void>)[] = [];
    app.addHook('onReady', () => {
      const deps = { db: ctx.db, mailer: ctx.mailer, publicUrl: ctx.config.publicUrl };
      // Each loop runs on one replica (db/advisory-locks.ts).
      const host = { log: app.log, locks: ctx.database.loops };
      stops = [
        startStorageSampler(ctx.db, files, host, opts.storageCheckMs ?? STORAGE_CHECK_MS),
        startDiskSampler(ctx.db, host, opts.storageCheckMs ?? STORAGE_CHECK_MS),
        startBudgetChecker(deps, host, opts.budgetCheckMs ?? ctx.config.budgetCheckMs),
        startPoolSampler(ctx.db, poolsOf, host, opts.poolSampleMs ?? POOL_SAMPLE_MS),
      ];
    });
    app.addHook('onClose', async () => {
      await Promise.all(stops.map((stop) => stop()));
    });
    await app.register(paymentRoutes(ctx));
    await app.register(usageRoutes(ctx));
    await app.register(budgetRoutes(ctx));
    await app.register(reportRoutes(ctx));
  };
