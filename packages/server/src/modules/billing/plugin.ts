import type { FastifyPluginAsync } from 'fastify';
import type { AppContext } from '../../context.js';
import { storageBackendOf } from '../storage/routes.js';
import { sampleDisks } from './disk-sampler.js';
import { sampleStorage, startSampling, STORAGE_CHECK_MS } from './storage-sampler.js';

export interface BillingOptions {
  /** How often storage is looked at (tests make it rare, and sample by hand). */
  storageCheckMs?: number;
}

/** Metering that runs beside the requests: storage sampled from the file backend, and disks. */
export const billingModule =
  (ctx: AppContext, opts: BillingOptions = {}): FastifyPluginAsync =>
  async (app) => {
    const files = await storageBackendOf(ctx);
    let stop: (() => Promise<void>) | undefined;
    app.addHook('onReady', () => {
      stop = startSampling(
        async () => {
          await sampleStorage(ctx.db, files);
          await sampleDisks(ctx.db);
        },
        app.log,
        opts.storageCheckMs ?? STORAGE_CHECK_MS,
      );
    });
    app.addHook('onClose', async () => {
      await stop?.();
    });
  };
