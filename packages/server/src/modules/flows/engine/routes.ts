import { z } from 'zod';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { Bake, BakeStart, BatchInfo, BatchInspect, FLOW_API, formatUri } from '@orrery/contract';
import type { AppContext } from '../../../context.js';
import { requireUser } from '../../../auth/principal.js';
import type { BlobBackend } from '../../../blob/backend.js';
import { authorize } from '../../../http/access.js';
import { notFound } from '../../../http/errors.js';
import { errorResponses } from '../../../http/route.js';
import { checkBakeSize, parseBatch } from '../batch/index.js';
import { bakeWithProject, placeOfProject } from '../service.js';
import type { FlowPlace } from '../store.js';
import type { BakeEngine } from './engine.js';
import { batchNameOf, readBatch } from './source.js';
import { bakeLimitsOf, batchRefusal, restartBake, startBake } from './start.js';
import { bakeWire } from '../wire.js';

type PlaceBody = { cluster: string; org_name?: string | null; project_name: string };
const placeOf = (b: PlaceBody): FlowPlace => ({
  cluster: b.cluster,
  org: b.org_name ?? '',
  project: b.project_name,
});
const flowUri = (p: FlowPlace) => formatUri('flow', p.cluster, p.org, p.project);
const bodyFlowUri = (request: FastifyRequest) => flowUri(placeOf(request.body as PlaceBody));

/**
 * Orrery's own calls beside the flow API: a batch file's params (the Start bake form), a bake
 * started with no CLI, and a restart from the failed tasks. Project writers bake, readers read.
 */
export const engineRoutes =
  (ctx: AppContext, engine: BakeEngine, files: BlobBackend): FastifyPluginAsyncZod =>
  async (app) => {
    const limits = bakeLimitsOf(ctx.config.flows);
    app.post(
      `${FLOW_API}/bakes/params`,
      {
        config: { access: { uri: bodyFlowUri, action: 'read' } },
        schema: {
          tags: ['flows'],
          body: BatchInspect,
          response: { 200: BatchInfo, ...errorResponses },
        },
      },
      async (request) => {
        const place = placeOf(request.body);
        const content = await readBatch(files, await request.grants(), place, request.body);
        const batch = batchRefusal(() => parseBatch(content));
        // The form is told now, not only when it starts the bake.
        batchRefusal(() => checkBakeSize(batch, limits));
        return {
          batch: batchNameOf(request.body, undefined, batch.id),
          title: batch.title,
          params: batch.params,
          tasks: batch.tasks.length,
        };
      },
    );

    app.post(
      `${FLOW_API}/bakes/start`,
      {
        config: { access: { uri: bodyFlowUri, action: 'write' } },
        schema: {
          tags: ['flows'],
          body: BakeStart,
          response: { 201: Bake, ...errorResponses },
        },
      },
      async (request, reply) => {
        const caller = requireUser(request);
        const req = request.body;
        const place = placeOf(req);
        const content = await readBatch(files, await request.grants(), place, req);
        const name = batchNameOf(req, req.batch, null);
        const { bake, attempt } = await startBake(
          ctx.db,
          caller,
          place,
          req,
          content,
          name,
          limits,
        );
        engine.kick();
        return reply.status(201).send(bakeWire(bake, attempt));
      },
    );

    app.post(
      `${FLOW_API}/bakes/:id/restart`,
      {
        config: { access: 'user-or-token' },
        schema: {
          tags: ['flows'],
          params: z.object({ id: z.string().min(1) }),
          response: { 201: Bake, ...errorResponses },
        },
      },
      async (request, reply) => {
        const caller = requireUser(request);
        const found = await bakeWithProject(ctx.db, request.params.id);
        if (!found) throw notFound(`Bake ${request.params.id} not found`);
        const { bake, project: flow } = found;
        await authorize(request, flowUri(placeOfProject(flow)), 'write');
        const attempt = await restartBake(ctx.db, caller, bake, limits);
        engine.kick();
        return reply.status(201).send(bakeWire(bake, attempt));
      },
    );
  };
