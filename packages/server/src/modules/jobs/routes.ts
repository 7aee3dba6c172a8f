import { z } from 'zod';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  Job,
  JobCreate,
  JobCreateFromPreset,
  JobList,
  JobListQuery,
  JobMaxRunTime,
  jobUri,
  type Action,
  DEFAULT_CLUSTER,
  JobSchedulingWire,
  clusterUri,
} from '@orrery/contract';
import type { AppContext } from '../../context.js';
import { requireUser } from '../../auth/principal.js';
import { authorize } from '../../http/access.js';
import { validationOf } from '../../http/errors.js';
import { errorResponses } from '../../http/route.js';
import { sendList } from '../../http/ndjson.js';
import type { JobRow, historyOf } from './store.js';
import { clusterQueueNow, jobsPage } from './service-list.js';
import { jobFor as findJob } from './found.js';
import type { JobsService } from './service.js';
import { jobWires } from './wire.js';

/** The largest page kept in memory between requests. */
const CACHED_PAGE = 100;

const OneJob = z.object({ job: z.string().min(1) });
const str = (v: unknown) => (typeof v === 'string' && v && !v.includes('/') ? v : '-');

/** Access is checked before validation: the URI comes from the raw body. */
function bodyUri(request: FastifyRequest) {
  const b = (request.body ?? {}) as Record<string, unknown>;
  return jobUri(str(b.cluster_name ?? DEFAULT_CLUSTER), str(b.org_name), str(b.project_name));
}

/** Jobs API: create, list, get, kill, extend. */
export const jobRoutes =
  (ctx: AppContext, jobs: JobsService): FastifyPluginAsyncZod =>
  async (app) => {
    const wire = (rows: JobRow[], known?: Awaited<ReturnType<typeof historyOf>>) =>
      jobWires(ctx, jobs, rows, known);

    const jobFor = (request: FastifyRequest, idOrName: string, action: Action) =>
      findJob(ctx.db, request, idOrName, action);

    app.post(
      '/api/v1/jobs',
      {
        config: { access: { uri: bodyUri, action: 'write' } },
        schema: {
          tags: ['jobs'],
          querystring: z.object({ from_preset: z.string().optional() }),
          body: z.unknown(),
          response: { 202: Job, ...errorResponses },
        },
      },
      async (request, reply) => {
        const caller = requireUser(request);
        // `?from_preset` (the CLI's `run`) has a flat body; without it the SDK nests a container.
        const fromPreset = request.query.from_preset !== undefined;
        const parsed = fromPreset
          ? JobCreateFromPreset.safeParse(request.body)
          : JobCreate.safeParse(request.body);
        if (!parsed.success) throw validationOf(parsed.error);
        const created = await jobs.create(
          caller,
          await request.grants(),
          fromPreset
            ? { kind: 'preset', body: parsed.data as z.infer<typeof JobCreateFromPreset> }
            : { kind: 'container', body: parsed.data as z.infer<typeof JobCreate> },
        );
        const [out] = await wire([created]);
        return reply.status(202).send(out);
      },
    );

    app.get(
      '/api/v1/jobs',
      {
        config: { access: 'user-or-token' },
        schema: {
          tags: ['jobs'],
          querystring: JobListQuery,
          response: { 200: JobList, ...errorResponses },
        },
      },
      async (
        request: FastifyRequest<{ Querystring: z.infer<typeof JobListQuery> }>,
        reply: FastifyReply,
      ) => {
        const q = request.query;
        const page = async () => jobsPage(ctx.db, await request.grants(), q);
        // Pages (the console's) are shared by the caller's requests until a job changes (the
        // `jobs` epoch) or the caller's access does; the wire is made per request (run times).
        const snap = await request.accessSnapshot();
        const key = `${snap.epochs.access}:${requireUser(request).id}:${request.url}`;
        const { rows, history } =
          q.limit !== undefined && q.limit <= CACHED_PAGE
            ? await snap.cached('jobs', key, page)
            : await page();
        return sendList(request, reply, await wire(rows, history), (jobs) => ({ jobs }));
      },
    );

    app.get(
      '/api/v1/jobs/:job',
      {
        config: { access: 'user-or-token' },
        schema: { tags: ['jobs'], params: OneJob, response: { 200: Job, ...errorResponses } },
      },
      async (request) => {
        const found = await jobFor(request, request.params.job, 'read');
        return (await wire([found]))[0]!;
      },
    );

    // Orrery: why a waiting job waits and where it stands (docs/scheduling.md).
    app.get(
      '/api/v1/jobs/:job/scheduling',
      {
        config: { access: 'user-or-token' },
        schema: {
          tags: ['jobs'],
          params: OneJob,
          response: { 200: JobSchedulingWire, ...errorResponses },
        },
      },
      async (request) => jobs.queue.scheduling(await jobFor(request, request.params.job, 'read')),
    );

    // Orrery: the cluster's queue for its managers (docs/scheduling.md).
    app.get(
      '/apis/admin/v1/clusters/:cluster/queue',
      {
        // A cluster's members may know it exists: they get 403, not 404 (the cluster's managers'
        // reads of the admin area, docs/permissions.md).
        config: { access: 'user' },
        schema: { tags: ['jobs'], params: z.object({ cluster: z.string().min(1) }) },
      },
      async (request) => {
        await authorize(request, clusterUri(request.params.cluster), 'manage');
        return clusterQueueNow(ctx.db, jobs.queue, request.params.cluster);
      },
    );

    app.delete(
      '/api/v1/jobs/:job',
      {
        config: { access: 'user-or-token' },
        schema: {
          tags: ['jobs'],
          params: OneJob,
          response: { 204: z.null(), ...errorResponses },
        },
      },
      async (request, reply) => {
        await jobs.kill(await jobFor(request, request.params.job, 'write'));
        return reply.status(204).send(null);
      },
    );

    // Orrery: rerun on the server, so "only the owner reruns" holds for every client.
    app.post(
      '/api/v1/jobs/:job/rerun',
      {
        config: { access: 'user-or-token' },
        schema: { tags: ['jobs'], params: OneJob, response: { 202: Job, ...errorResponses } },
      },
      async (request, reply) => {
        const found = await jobFor(request, request.params.job, 'read');
        const created = await jobs.rerun(requireUser(request), await request.grants(), found);
        return reply.status(202).send((await wire([created]))[0]!);
      },
    );

    app.put(
      '/api/v1/jobs/:job/max_run_time_minutes',
      {
        config: { access: 'user-or-token' },
        schema: {
          tags: ['jobs'],
          params: OneJob,
          body: JobMaxRunTime,
          response: { 204: z.null(), ...errorResponses },
        },
      },
      async (request, reply) => {
        const found = await jobFor(request, request.params.job, 'write');
        const b = request.body;
        await jobs.extend(
          found,
          'max_run_time_minutes' in b
            ? { set: b.max_run_time_minutes }
            : { add: b.additional_max_run_time_minutes },
        );
        return reply.status(204).send(null);
      },
    );
  };
