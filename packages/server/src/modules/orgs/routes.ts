import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  AdminOrg,
  AdminOrgCreate,
  AdminOrgCreateQuery,
  Exists,
  Org,
  OrgCreate,
  PageQuery,
  paged,
  pageOf,
  orgUri,
} from '@orrery/contract';
import type { AppContext } from '../../context.js';
import { requireUser } from '../../auth/principal.js';
import { notFound } from '../../http/errors.js';
import { ADMIN_API, errorResponses } from '../../http/route.js';
import { adminOrg, createOrg, orgNamed, userOrg, userOrgs } from './service.js';
import { orgWire } from './wire.js';

const Params = z.object({ name: z.string().min(1) });

export const orgRoutes =
  (ctx: AppContext): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      '/api/v1/orgs',
      {
        config: { access: 'user' },
        schema: {
          tags: ['orgs'],
          querystring: PageQuery,
          response: { 200: paged(Org), ...errorResponses },
        },
      },
      async (request) => {
        const all = await userOrgs(ctx.db, requireUser(request).id);
        const { page, size } = request.query;
        return pageOf(
          all.slice((page - 1) * size, page * size).map(orgWire),
          all.length,
          request.query,
        );
      },
    );

    app.post(
      '/api/v1/orgs',
      {
        config: { access: 'user' },
        schema: { tags: ['orgs'], body: OrgCreate, response: { 201: Org, ...errorResponses } },
      },
      async (request, reply) => {
        const caller = requireUser(request);
        await createOrg(ctx.db, caller, request.body.name);
        const org = (await userOrg(ctx.db, caller.id, request.body.name))!;
        return reply.status(201).send(orgWire(org));
      },
    );

    // `apolo admin add-org`: the same creation, whoever may create one here (a verified user),
    // answered as the admin API's organization.
    app.post(
      `${ADMIN_API}/orgs`,
      {
        config: { access: 'user' },
        schema: {
          tags: ['admin'],
          querystring: AdminOrgCreateQuery,
          body: AdminOrgCreate,
          response: { 201: AdminOrg, ...errorResponses },
        },
      },
      async (request, reply) => {
        const { name } = request.body;
        await createOrg(ctx.db, requireUser(request), name, {
          linkLocalCluster: !request.query.skip_auto_add_to_clusters,
        });
        const org = await adminOrg(ctx.db, name);
        return reply.status(201).send(org);
      },
    );

    app.get(
      '/api/v1/orgs/:name/exists',
      {
        config: { access: 'user' },
        schema: { tags: ['orgs'], params: Params, response: { 200: Exists, ...errorResponses } },
      },
      async (request) => ({ exists: await orgNamed(ctx.db, request.params.name) }),
    );

    app.get(
      '/api/v1/orgs/:name',
      {
        config: {
          access: { uri: (r) => orgUri((r.params as { name: string }).name), action: 'read' },
        },
        schema: { tags: ['orgs'], params: Params, response: { 200: Org, ...errorResponses } },
      },
      async (request) => {
        const caller = requireUser(request);
        const org = await userOrg(ctx.db, caller.id, request.params.name);
        if (!org) throw notFound('Organization not found');
        return orgWire(org);
      },
    );
  };
