import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  CreditsUsage,
  CreditsUsageRequest,
  orgUri,
  TopQuery,
  TopResources,
  Usage,
  UsageQuery,
} from '@orrery/contract';
import type { AppContext } from '../../context.js';
import { allows } from '../../auth/permissions.js';
import { requireUser } from '../../auth/principal.js';
import { authorize } from '../../http/access.js';
import { forbidden } from '../../http/errors.js';
import { errorResponses } from '../../http/route.js';
import { toCsv } from './csv.js';
import { authorizeUsage } from './reports-access.js';
import { creditsUsage, memberOrgNames, topResources, usageOf } from './service.js';

const tags = ['billing'];

/** Who reads which scope is decided per query (reports-access.ts), after validation. */
const scoped = { access: 'user' as const };

/** A name for the download: the organization and the period, in UTC days. */
const fileName = (q: UsageQuery) =>
  `usage-${q.org_name ?? q.cluster_name}-${q.start_date.toISOString().slice(0, 10)}-${q.end_date.toISOString().slice(0, 10)}.csv`;

function usageCsv(q: UsageQuery, u: Awaited<ReturnType<typeof usageOf>>) {
  const keys = u.groups.map((g) =>
    g === 'project' ? 'project_name' : g === 'user' ? 'user_name' : g === 'category' ? g : 'date',
  );
  const header = ['cluster_name', ...keys, 'credits'];
  const rows = u.clusters.flatMap((c) =>
    c.usage.map((item) => [
      c.cluster_name,
      ...keys.map((k) => item[k as keyof typeof item] ?? null),
      item.credits,
    ]),
  );
  return { name: fileName(q), body: toCsv(header, rows) };
}

/**
 * The organizations whose usage the metrics call may return: all for a system administrator
 * (undefined), else those the caller manages; none is a 403, the call being no one's secret.
 */
async function managedOrgs(ctx: AppContext, request: FastifyRequest) {
  const caller = requireUser(request);
  if (caller.systemRole === 'admin') return undefined;
  const grants = await request.grants();
  const mine = await memberOrgNames(ctx.db, caller.id);
  const managed = mine.filter((o) => allows(grants, orgUri(o), 'manage'));
  if (managed.length === 0) throw forbidden('Only organization managers can read credits usage');
  return managed;
}

export const usageRoutes =
  (ctx: AppContext): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      '/apis/billing/v1/usage',
      {
        config: scoped,
        schema: {
          tags,
          querystring: UsageQuery,
          response: { 200: z.union([Usage, z.string()]), ...errorResponses },
        },
      },
      async (request, reply) => {
        const q = request.query;
        await authorizeUsage(request, q);
        const usage = await usageOf(ctx.db, q);
        if (q.format === 'csv') {
          const csv = usageCsv(q, usage);
          return reply
            .type('text/csv; charset=utf-8')
            .header('content-disposition', `attachment; filename="${csv.name}"`)
            .send(csv.body);
        }
        return { clusters: usage.clusters, total: usage.total };
      },
    );

    app.get(
      '/apis/billing/v1/top',
      {
        config: scoped,
        schema: {
          tags,
          querystring: TopQuery,
          response: { 200: TopResources, ...errorResponses },
        },
      },
      async (request) => {
        await authorizeUsage(request, request.query);
        return topResources(ctx.db, request.query);
      },
    );

    app.post(
      '/api/v1/metrics/credits/usage',
      {
        config: { access: 'user' },
        schema: {
          tags,
          body: CreditsUsageRequest,
          response: { 200: CreditsUsage, ...errorResponses },
        },
      },
      async (request) => {
        const q = request.body;
        if (q.org_name) {
          await authorize(request, orgUri(q.org_name), 'manage');
          return creditsUsage(ctx.db, q);
        }
        return creditsUsage(ctx.db, q, await managedOrgs(ctx, request));
      },
    );
  };
