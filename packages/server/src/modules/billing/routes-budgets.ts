import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { Budget, Budgets, PutBudget, orgUri, projectUri } from '@orrery/contract';
import type { AppContext } from '../../context.js';
import { allows } from '../../auth/permissions.js';
import { errorResponses } from '../../http/route.js';
import { budgetsOf } from './budgets.js';
import { BILLING_API } from './routes-payments.js';
import { projectClusters, removeBudget, setBudget } from './service.js';

const tags = ['billing'];
const OrgParams = z.object({ org: z.string().min(1) });
const ProjectParams = OrgParams.extend({ project: z.string().min(1) });
type Params = { org: string; project?: string };

/** Setting and reading budgets is managing the organization's billing. */
const managesOrg = {
  access: {
    uri: (r: FastifyRequest) => orgUri((r.params as Params).org),
    action: 'manage' as const,
  },
};

/** Budgets of an organization and its projects; the banner's view of those crossed. */
export const budgetRoutes =
  (ctx: AppContext): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      `${BILLING_API}/orgs/:org/budgets`,
      {
        config: managesOrg,
        schema: { tags, params: OrgParams, response: { 200: Budgets, ...errorResponses } },
      },
      async (request) => ({
        items: (await budgetsOf(ctx.db, [request.params.org])).map((b) => b.wire),
      }),
    );

    // The banner: a manager sees every budget crossed this month, a member their projects'.
    app.get(
      `${BILLING_API}/orgs/:org/budget_alerts`,
      {
        config: { access: 'user' },
        schema: { tags, params: OrgParams, response: { 200: Budgets, ...errorResponses } },
      },
      async (request) => {
        const { org } = request.params;
        const grants = await request.grants();
        const manager = allows(grants, orgUri(org), 'manage');
        const crossed = (await budgetsOf(ctx.db, [org])).filter((b) => b.wire.crossed !== null);
        const visible = [];
        for (const b of crossed) {
          const project = b.wire.project_name;
          if (manager) visible.push(b.wire);
          else if (project) {
            const clusters = await projectClusters(ctx.db, org, project);
            if (clusters.some((c) => allows(grants, projectUri(c, org, project), 'read'))) {
              visible.push(b.wire);
            }
          }
        }
        return { items: visible };
      },
    );

    const put = async (
      request: FastifyRequest<{ Params: Params; Body: z.output<typeof PutBudget> }>,
    ) => {
      return setBudget(ctx.db, request.params, request.body);
    };
    const del = async (request: FastifyRequest<{ Params: Params }>, reply: FastifyReply) => {
      await removeBudget(ctx.db, request.params);
      await reply.status(204).send(null);
    };
    for (const [path, params] of [
      [`${BILLING_API}/orgs/:org/budgets`, OrgParams],
      [`${BILLING_API}/orgs/:org/budgets/:project`, ProjectParams],
    ] as const) {
      app.put(
        path,
        {
          config: managesOrg,
          schema: { tags, params, body: PutBudget, response: { 200: Budget, ...errorResponses } },
        },
        put,
      );
      app.delete(
        path,
        {
          config: managesOrg,
          schema: { tags, params, response: { 204: z.null(), ...errorResponses } },
        },
        del,
      );
    }
  };
