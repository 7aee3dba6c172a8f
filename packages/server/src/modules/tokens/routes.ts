import { z } from 'zod';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  ProjectToken,
  ProjectTokenCreate,
  ProjectTokenCreated,
  TOKEN_MAX_DAYS,
  TOKEN_TEXTS,
  projectUri,
  type Action,
} from '@orrery/contract';
import type { AppContext } from '../../context.js';
import { requireUser } from '../../auth/principal.js';
import { invalid, notFound } from '../../http/errors.js';
import { errorResponses } from '../../http/route.js';
import { projectId } from '../projects/store.js';
import { createToken, listTokens, revokeToken } from './store.js';

const ProjectParams = z.object({
  cluster: z.string().min(1),
  org: z.string().min(1),
  project: z.string().min(1),
});
const TokenParams = ProjectParams.extend({ id: z.uuid({ message: TOKEN_TEXTS.notFound }) });
const PATH = '/api/v1/clusters/:cluster/orgs/:org/projects/:project/tokens';
const DAY_MS = 86_400_000;
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

/** When a new token expires: in the future, within TOKEN_MAX_DAYS. */
export function expiryOf(raw: string, now = Date.now()): Date {
  const at = new Date(raw);
  if (at.getTime() <= now) throw invalid('expires_at', TOKEN_TEXTS.expiryPast);
  // A minute of slack, so that "365 days" picked in the console is not refused in transit.
  if (at.getTime() > now + TOKEN_MAX_DAYS * DAY_MS + 60_000) {
    throw invalid('expires_at', TOKEN_TEXTS.expiryTooFar);
  }
  return at;
}

/** Project tokens: create (shown once), list, revoke (docs/tokens.md). */
export const tokenRoutes =
  (ctx: AppContext): FastifyPluginAsyncZod =>
  async (app) => {
    const { db } = ctx;
    const idOf = async (p: z.infer<typeof ProjectParams>) => {
      const id = await projectId(db, p.cluster, p.org, p.project);
      if (!id) throw notFound('Project not found');
      return id;
    };

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
      async (request) => listTokens(db, await idOf(request.params)),
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
        const created = await createToken(db, {
          projectId: await idOf(request.params),
          name: b.name,
          role: b.role,
          expiresAt: expiryOf(b.expires_at),
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
      async (request) => revokeToken(db, await idOf(request.params), request.params.id),
    );
  };
