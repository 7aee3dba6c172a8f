import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { FLOW_API, LiveJob, LiveJobCreate } from '@orrery/contract';
import type { AppContext } from '../../context.js';
import { notFound } from '../../http/errors.js';
import { errorResponses } from '../../http/route.js';
import {
  insertLiveJob,
  liveJobById,
  liveJobByYamlId,
  liveJobsOf,
  projectById,
  upsertLiveJob,
} from './service.js';
import type { LiveJobValues } from './store-records.js';
import { liveJobWire } from './wire.js';
import { checked, flowOf, Id, key, sendReadable, unlessTaken } from './routes-common.js';

const OfFlow = z.object({ project_id: key });
const ByYamlId = OfFlow.extend({ yaml_id: key });
const valuesOf = (b: z.infer<typeof LiveJobCreate>): LiveJobValues => ({
  projectId: b.project_id,
  yamlId: b.yaml_id,
  multi: b.multi,
  tags: b.tags,
  rawId: b.raw_id ?? null,
});

/** Live jobs of a flow (`apolo-flow run JOB`): the record of the job a flow's yaml id runs. */
export const liveJobRoutes =
  (ctx: AppContext): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      `${FLOW_API}/live_jobs`,
      {
        config: { access: 'user-or-token' },
        schema: {
          tags: ['flows'],
          querystring: OfFlow,
          response: { 200: z.array(LiveJob), ...errorResponses },
        },
      },
      async (request, reply) => {
        const project = await projectById(ctx.db, request.query.project_id);
        return sendReadable(
          request,
          reply,
          project,
          () => liveJobsOf(ctx.db, project!.id),
          liveJobWire,
        );
      },
    );

    app.post(
      `${FLOW_API}/live_jobs`,
      {
        config: { access: 'user-or-token' },
        schema: {
          tags: ['flows'],
          body: LiveJobCreate,
          response: { 201: LiveJob, ...errorResponses },
        },
      },
      async (request, reply) => {
        const b = request.body;
        await checked(request, await flowOf(ctx.db, b.project_id), 'write', `Flow ${b.project_id}`);
        const created = await unlessTaken(
          () => insertLiveJob(ctx.db, valuesOf(b)),
          `Live job ${b.yaml_id} already exists in this flow`,
        );
        return reply.status(201).send(liveJobWire(created));
      },
    );

    // Creates or replaces: 201 when the record is new, 200 when it replaced one.
    app.put(
      `${FLOW_API}/live_jobs/replace`,
      {
        config: { access: 'user-or-token' },
        schema: {
          tags: ['flows'],
          body: LiveJobCreate,
          response: { 200: LiveJob, 201: LiveJob, ...errorResponses },
        },
      },
      async (request, reply) => {
        const b = request.body;
        await checked(request, await flowOf(ctx.db, b.project_id), 'write', `Flow ${b.project_id}`);
        const before = await liveJobByYamlId(ctx.db, b.project_id, b.yaml_id);
        const saved = await upsertLiveJob(ctx.db, valuesOf(b));
        return reply.status(before ? 200 : 201).send(liveJobWire(saved));
      },
    );

    app.get(
      `${FLOW_API}/live_jobs/by_yaml_id`,
      {
        config: { access: 'user-or-token' },
        schema: {
          tags: ['flows'],
          querystring: ByYamlId,
          response: { 200: LiveJob, ...errorResponses },
        },
      },
      async (request) => {
        const { project_id, yaml_id } = request.query;
        await checked(request, await flowOf(ctx.db, project_id), 'read', `Flow ${project_id}`);
        const found = await liveJobByYamlId(ctx.db, project_id, yaml_id);
        if (!found) throw notFound(`Live job ${yaml_id} not found`);
        return liveJobWire(found);
      },
    );

    app.get(
      `${FLOW_API}/live_jobs/:id`,
      {
        config: { access: 'user-or-token' },
        schema: { tags: ['flows'], params: Id, response: { 200: LiveJob, ...errorResponses } },
      },
      async (request) => {
        const found = await liveJobById(ctx.db, request.params.id);
        const row = found && { job: found, project: (await projectById(ctx.db, found.projectId))! };
        const { job } = await checked(request, row, 'read', `Live job ${request.params.id}`);
        return liveJobWire(job);
      },
    );
  };
