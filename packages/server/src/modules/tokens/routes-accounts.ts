import { z } from 'zod';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  SERVICE_ACCOUNT_TEXTS,
  ServiceAccount,
  ServiceAccountCreate,
  ServiceAccountCreated,
  projectUri,
} from '@orrery/contract';
import type { AppContext } from '../../context.js';
import { requireUser } from '../../auth/principal.js';
import { allows } from '../../auth/permissions.js';
import { authorize } from '../../http/access.js';
import { invalid, notFound } from '../../http/errors.js';
import { errorResponses } from '../../http/route.js';
import type { AccountRow } from './accounts-store.js';
import { accountWire } from './accounts-wire.js';
import {
  accountProjectId,
  accountsOf,
  createAccount,
  projectsNamed,
  revokeAccount,
} from './service.js';

const PATH = '/api/v1/service_accounts';
const IdOrName = z.object({ id_or_name: z.string().min(1).max(100) });
const tags = ['tokens'];
/** The signed-in user; the project each call touches is checked in the handler, by the engine. */
const config = { access: 'user' as const };

const uriOf = (a: Pick<AccountRow, 'cluster' | 'org' | 'project'>) =>
  projectUri(a.cluster, a.org, a.project);

/**
 * Apolo's service accounts on the project tokens: an account is a token its
 * owner creates in the project they name, with the rule of the tokens routes (managing the
 * project). The account acts as a manager of that project, the most a token can be, which the
 * owner is by that rule; Apolo's accounts do not expire, ours last TOKEN_MAX_DAYS, the longest a
 * token may. docs/tokens.md.
 */
export const serviceAccountRoutes =
  (ctx: AppContext): FastifyPluginAsyncZod =>
  async (app) => {
    const { db } = ctx;

    /** The project named by a creation; without `default_org`, the one of that name the caller sees. */
    async function projectOf(request: FastifyRequest, b: ServiceAccountCreate) {
      const cluster = b.default_cluster;
      const project = b.default_project;
      let org = b.default_org;
      if (!org) {
        const grants = await request.grants();
        const seen = (await projectsNamed(db, cluster, project)).filter((p) =>
          allows(grants, projectUri(cluster, p.org, project), 'read'),
        );
        if (seen.length === 0) throw notFound(SERVICE_ACCOUNT_TEXTS.projectNotFound);
        if (seen.length > 1) throw invalid('default_org', SERVICE_ACCOUNT_TEXTS.orgAmbiguous);
        org = seen[0].org;
      }
      await authorize(
        request,
        projectUri(cluster, org, project),
        'manage',
        SERVICE_ACCOUNT_TEXTS.projectNotFound,
      );
      const id = await accountProjectId(db, { cluster, org, project });
      return { id, cluster, org, project };
    }

    /** One of the caller's accounts, on a project they still manage; else 404 or the engine's 403. */
    async function accountOf(request: FastifyRequest, idOrName: string) {
      const [row] = await accountsOf(db, requireUser(request).id, idOrName);
      if (!row) throw notFound(SERVICE_ACCOUNT_TEXTS.notFound);
      await authorize(request, uriOf(row), 'manage', SERVICE_ACCOUNT_TEXTS.notFound);
      return row;
    }

    app.get(
      PATH,
      { config, schema: { tags, response: { 200: z.array(ServiceAccount), ...errorResponses } } },
      async (request) => {
        const grants = await request.grants();
        const rows = await accountsOf(db, requireUser(request).id);
        return rows.filter((r) => allows(grants, uriOf(r), 'manage')).map(accountWire);
      },
    );

    app.post(
      PATH,
      {
        config,
        schema: {
          tags,
          body: ServiceAccountCreate,
          response: { 201: ServiceAccountCreated, ...errorResponses },
        },
      },
      async (request, reply) => {
        const user = requireUser(request);
        const where = await projectOf(request, request.body);
        const created = await createAccount(
          db,
          user,
          where,
          request.body.name,
          ctx.config.publicUrl,
        );
        return reply.status(201).send(created);
      },
    );

    app.get(
      `${PATH}/:id_or_name`,
      {
        config,
        schema: {
          tags,
          params: IdOrName,
          response: { 200: ServiceAccount, ...errorResponses },
        },
      },
      async (request) => accountWire(await accountOf(request, request.params.id_or_name)),
    );

    app.delete(
      `${PATH}/:id_or_name`,
      {
        config,
        schema: { tags, params: IdOrName, response: { 204: z.null(), ...errorResponses } },
      },
      async (request, reply) => {
        const row = await accountOf(request, request.params.id_or_name);
        await revokeAccount(db, row);
        return reply.status(204).send(null);
      },
    );
  };
