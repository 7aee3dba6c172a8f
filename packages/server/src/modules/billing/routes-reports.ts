import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { clusterUri, PoolSamplesQuery, PoolUtilisation } from '@orrery/contract';
import type { AppContext } from '../../context.js';
import { errorResponses } from '../../http/route.js';
import { poolUtilisation } from './reports-sampler.js';

/** Node-pool utilisation of a cluster over a period: its managers and system administrators. */
export const reportRoutes =
  (ctx: AppContext): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      '/apis/billing/v1/pools',
      {
        config: {
          access: {
            uri: (r: FastifyRequest) =>
              clusterUri((r.query as { cluster_name: string }).cluster_name),
            action: 'manage',
          },
        },
        schema: {
          tags: ['billing'],
          querystring: PoolSamplesQuery,
          response: { 200: PoolUtilisation, ...errorResponses },
        },
      },
      async (request) => poolUtilisation(ctx.db, request.query),
    );
  };
