import { z } from 'zod';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  ProjectToken,
  ProjectTokenCreate,
  ProjectTokenCreated,
  TOKEN_TEXTS,
  projectUri,
  type Action,
} from '@orrery/contract';
import type { AppContext } from '../../context.js';
import { requireUser } from '../../auth/principal.js';
import { errorResponses } from '../../http/route.js';
import { createProjectToken, projectTokens, revokeProjectToken } from './service.js';

const ProjectParams = z.object({
  cluster: z.string().min(1),
  org: z.string().min(1),
  project: z.string().min(1),
});
const TokenParams = ProjectParams.extend({ id: z.uuid({ message: TOKEN_TEXTS.notFound }) });
const PATH = '/api/v1/clusters/:cluster/orgs/:org/projects/:project/tokens';
const tags = ['tokens'];

/**
 * Tokens are a project manager's: reading them too, since their names and roles say who can act.
 * A person's only: a token that made tokens could outlive its own revocation through them.
 */
const onProject = (action: Action) => ({
  access: {
    uri: (r: FastifyRequest) => {
      const p = r.params as z.infer<typeof ProjectParams>;
      return projectUri(p.cluster, p.org, p.project);
    },
    action,
    people: true as const,
  },
});

/** Project tokens: create (shown once), list, revoke (docs/tokens.md). */
export const tokenRoutes =
  (ctx: AppContext): FastifyPluginAsyncZod =>
  async (app) => {
    const { db } = ctx;
    app.get(
      PATH,
      {
        config: onProject('manage'),
        schema: {
          tags,
          params: ProjectParams,
          response: { 200: z.array(ProjectToken), ...errorResponses },
        },
      },
      async (request) => projectTokens(db, request.params),
    );

    app.post(
      PATH,
      {
        config: onProject('manage'),
        schema: {
          tags,
          params: ProjectParams,
          body: ProjectTokenCreate,
          response: { 201: ProjectTokenCreated, ...errorResponses },
        },
      },
      async (request, reply) => {
        const b = request.body;
        const created = await createProjectToken(db, request.params, {
          name: b.name,
          role: b.role,
          expiresAt: b.expires_at,
          createdBy: requireUser(request).id,
          issuer: ctx.config.publicUrl,
        });
        return reply.status(201).send(created);
      },
    );

    app.delete(
      `${PATH}/:id`,
      {
        config: onProject('manage'),
        schema: {
          tags,
          params: TokenParams,
          response: { 200: ProjectToken, ...errorResponses },
        },
      },
      async (request) => revokeProjectToken(db, request.params, request.params.id),
    );
  };
