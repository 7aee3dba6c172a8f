import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  Exists,
  PageQuery,
  paged,
  pageOf,
  Project,
  ProjectCreate,
  ProjectExistsQuery,
  projectUri,
  orgUri,
} from '@orrery/contract';
import type { AppContext } from '../../context.js';
import { requireUser } from '../../auth/principal.js';
import { errorResponses } from '../../http/route.js';
import { createProject, projectAt, projectNameTaken, projectsVisibleTo } from './service.js';
import { projectWire } from './wire.js';

const InOrg = z.object({ cluster: z.string().min(1), org: z.string().min(1) });
const OneProject = InOrg.extend({ project: z.string().min(1) });

export const projectRoutes =
  (ctx: AppContext): FastifyPluginAsyncZod =>
  async (app) => {
    app.post(
      '/api/v1/projects',
      {
        config: { access: 'user' },
        schema: {
          tags: ['projects'],
          body: ProjectCreate,
          response: { 201: Project, ...errorResponses },
        },
      },
      async (request, reply) => {
        const caller = requireUser(request);
        const b = request.body;
        const created = await createProject(ctx.db, caller, {
          name: b.name,
          orgName: b.org_name,
          clusterName: b.cluster_name,
          isDefault: b.is_default,
          defaultRole: b.default_role,
        });
        return reply.status(201).send(projectWire(created));
      },
    );

    app.get(
      '/api/v1/projects/exists',
      {
        config: { access: 'user' },
        schema: {
          tags: ['projects'],
          querystring: ProjectExistsQuery,
          response: { 200: Exists, ...errorResponses },
        },
      },
      async (request) => {
        const q = request.query;
        const place = { cluster: q.cluster_name, org: q.org_name, name: q.name };
        return { exists: await projectNameTaken(ctx.db, requireUser(request), place) };
      },
    );

    app.get(
      '/api/v1/clusters/:cluster/orgs/:org/projects',
      {
        config: {
          access: { uri: (r) => orgUri((r.params as { org: string }).org), action: 'read' },
        },
        schema: {
          tags: ['projects'],
          params: InOrg,
          querystring: PageQuery,
          response: { 200: paged(Project), ...errorResponses },
        },
      },
      async (request) => {
        const caller = requireUser(request);
        const { cluster, org } = request.params;
        const visible = await projectsVisibleTo(ctx.db, caller, cluster, org);
        const { page, size } = request.query;
        return pageOf(
          visible.slice((page - 1) * size, page * size).map(projectWire),
          visible.length,
          request.query,
        );
      },
    );

    app.get(
      '/api/v1/clusters/:cluster/orgs/:org/projects/:project',
      {
        config: {
          access: {
            uri: (r) => {
              const p = r.params as z.infer<typeof OneProject>;
              return projectUri(p.cluster, p.org, p.project);
            },
            action: 'read',
          },
        },
        schema: {
          tags: ['projects'],
          params: OneProject,
          response: { 200: Project, ...errorResponses },
        },
      },
      async (request) => {
        return projectWire(await projectAt(ctx.db, requireUser(request), request.params));
      },
    );
  };
