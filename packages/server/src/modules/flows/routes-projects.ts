import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { FLOW_API, FlowProject, FlowProjectCreate } from '@orrery/contract';
import type { AppContext } from '../../context.js';
import { requireUser } from '../../auth/principal.js';
import { allows } from '../../auth/permissions.js';
import { errorResponses } from '../../http/route.js';
import {
  deleteFlow,
  insertProject,
  placeOfProject,
  projectById,
  projectByName,
  projectsMatching,
} from './service.js';
import type { FlowPlace } from './store.js';
import { projectWire } from './wire.js';
import {
  checked,
  flowOf,
  Empty,
  flowUri,
  Id,
  indexed,
  sendItems,
  unlessTaken,
} from './routes-common.js';

/** Cluster, organization and project names, in the platform's form `^[a-z0-9](-?[a-z0-9])*$`. */
const placeName = indexed(255);
const Place = z.object({
  cluster: placeName,
  project_name: placeName,
  // Omitted (or empty) for a project outside any organization.
  org_name: indexed(255, 0).nullish(),
});
const placeOf = (q: z.infer<typeof Place>): FlowPlace => ({
  cluster: q.cluster,
  org: q.org_name ?? '',
  project: q.project_name,
});

const ByName = Place.extend({ name: placeName, owner: z.string().max(255).optional() });
const Create = FlowProjectCreate.extend({ ...Place.shape, name: indexed(256) });
const ListQuery = z.object({
  name: placeName.optional(),
  cluster: placeName.optional(),
  org_name: z.string().max(255).optional(),
  owner: z.string().max(255).optional(),
  project_name: placeName.optional(),
});

const base = `${FLOW_API}/projects`;

/** Flow projects ("flows"): one per flow id in a platform project, shared by its members. */
export const projectRoutes =
  (ctx: AppContext): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      base,
      {
        config: { access: 'user-or-token' },
        schema: {
          tags: ['flows'],
          querystring: ListQuery,
          response: { 200: z.array(FlowProject), ...errorResponses },
        },
      },
      async (request, reply) => {
        const q = request.query;
        const rows = await projectsMatching(ctx.db, {
          name: q.name,
          cluster: q.cluster,
          org: q.org_name,
          owner: q.owner,
          project: q.project_name,
        });
        const grants = await request.grants();
        const mine = rows.filter((r) => allows(grants, flowUri(placeOfProject(r)), 'read'));
        return sendItems(request, reply, mine, projectWire);
      },
    );

    // The client looks its flow up by name first and creates it on 404. The owner it sends is
    // not part of the key: a project's members share one flow of a name.
    app.get(
      `${base}/by_name`,
      {
        config: {
          access: {
            uri: (r) => flowUri(placeOf(r.query as z.infer<typeof ByName>)),
            action: 'read',
          },
        },
        schema: {
          tags: ['flows'],
          querystring: ByName,
          response: { 200: FlowProject, ...errorResponses },
        },
      },
      async (request) => {
        const found = await projectByName(ctx.db, placeOf(request.query), request.query.name);
        const row = await checked(
          request,
          found && { project: found },
          'read',
          `Flow ${request.query.name}`,
        );
        return projectWire(row.project);
      },
    );

    app.post(
      base,
      {
        config: {
          access: {
            uri: (r) => flowUri(placeOf(r.body as z.infer<typeof Create>)),
            action: 'write',
          },
        },
        schema: {
          tags: ['flows'],
          body: Create,
          response: { 201: FlowProject, ...errorResponses },
        },
      },
      async (request, reply) => {
        const b = request.body;
        const created = await unlessTaken(
          () => insertProject(ctx.db, placeOf(b), b.name, requireUser(request).username),
          `Flow ${b.name} already exists in project ${b.project_name}`,
        );
        return reply.status(201).send(projectWire(created));
      },
    );

    app.get(
      `${base}/:id`,
      {
        config: { access: 'user-or-token' },
        schema: { tags: ['flows'], params: Id, response: { 200: FlowProject, ...errorResponses } },
      },
      async (request) => {
        const found = await projectById(ctx.db, request.params.id);
        return projectWire(
          (await checked(request, found && { project: found }, 'read', 'Flow')).project,
        );
      },
    );

    app.delete(
      `${base}/:id`,
      {
        config: { access: 'user-or-token' },
        schema: { tags: ['flows'], params: Id, response: { 204: Empty, ...errorResponses } },
      },
      async (request, reply) => {
        const { id } = request.params;
        const { project } = await checked(request, await flowOf(ctx.db, id), 'write', `Flow ${id}`);
        await deleteFlow(ctx.db, project.id);
        return reply.status(204).send(null);
      },
    );
  };
