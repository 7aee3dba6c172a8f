import { Readable } from 'node:stream';
import { createInterface } from 'node:readline';
import { z } from 'zod';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { JobLogQuery, isFinalJobStatus, projectUri, type JobStatus } from '@orrery/contract';
import { authorize } from '../../http/access.js';
import { notFound } from '../../http/errors.js';
import { ndjsonStream } from '../../http/ndjson.js';
import { pipeToSocket } from '../../http/ws-stream.js';
import type { AppsService } from './service.js';
import { instanceById, jobsOfRevision, type InstanceRow } from './store.js';

const OneApp = z.object({ id: z.string().min(1) });
type LogQuery = z.infer<typeof JobLogQuery>;

export interface AppLogLine {
  job_id: string;
  /** The job's role in the instance (`main`, `db`, …). */
  container: string;
  log: string;
}

/** Lines of several streams as they come, each labelled with its job. */
async function* mergeLines(sources: { id: string; role: string; stream: Readable }[]) {
  const iterators = sources.map((s) => ({
    ...s,
    it: createInterface({ input: s.stream, crlfDelay: Infinity })[Symbol.asyncIterator](),
  }));
  const next = (i: number) => iterators[i]!.it.next().then((r) => ({ i, r }));
  const pending = new Map(iterators.map((_, i) => [i, next(i)]));
  try {
    while (pending.size) {
      const { i, r } = await Promise.race(pending.values());
      if (r.done) {
        pending.delete(i);
        continue;
      }
      pending.set(i, next(i));
      const s = iterators[i]!;
      yield { job_id: s.id, container: s.role, log: r.value } satisfies AppLogLine;
    }
  } finally {
    for (const s of sources) s.stream.destroy();
  }
}

/**
 * The logs of an instance are those of its current revision's jobs: NDJSON for the console at
 * `{monitoring}/apps/{id}/log` (the jobs' monitoring path with `jobs` replaced by `apps`), and
 * raw bytes over the CLI's `log_ws` WebSocket.
 */
export const appLogRoutes =
  (apps: AppsService): FastifyPluginAsyncZod =>
  async (app) => {
    const instanceFor = async (request: FastifyRequest, id: string) => {
      const row = await instanceById(apps.db, id);
      if (!row) throw notFound(`App instance ${id} not found`);
      await authorize(request, projectUri(row.clusterName, row.orgName, row.projectName), 'read');
      return row;
    };
    const linesOf = async (row: InstanceRow, q: LogQuery) => {
      const jobs = await jobsOfRevision(apps.db, row.id, row.revision);
      const sources = await Promise.all(
        jobs
          .filter((j) => j.materialized || j.startedAt)
          .map(async (j) => ({
            id: j.id,
            role: j.tags.find((t) => t.startsWith('app-role:'))?.slice(9) ?? j.id,
            stream: await apps.jobs.driver.logs(j.id, {
              since: q.since ? new Date(q.since) : undefined,
              follow: !isFinalJobStatus(j.status as JobStatus),
              timestamps: q.timestamps ?? false,
            }),
          })),
      );
      return mergeLines(sources);
    };

    app.get(
      '/api/v1/apps/:id/log',
      {
        config: { access: 'user' },
        schema: { tags: ['apps'], params: OneApp, querystring: JobLogQuery },
      },
      async (request, reply) => {
        const row = await instanceFor(request, request.params.id);
        const stream = ndjsonStream(await linesOf(row, request.query), { batch: 0 });
        request.raw.on('close', () => stream.destroy());
        return reply.type('application/x-ndjson').send(stream);
      },
    );

    // Authorized before the upgrade: a refusal is an HTTP status, as for the jobs' log_ws.
    const upgraded = new WeakMap<FastifyRequest, InstanceRow>();
    app.get(
      '/api/v1/apps/:id/log_ws',
      {
        websocket: true,
        config: { access: 'user' },
        schema: { params: OneApp, querystring: JobLogQuery },
        preHandler: async (request) => {
          const { id } = request.params as z.infer<typeof OneApp>;
          upgraded.set(request, await instanceFor(request, id));
        },
      },
      async (socket, request) => {
        try {
          const lines = await linesOf(upgraded.get(request)!, request.query as LogQuery);
          const raw = Readable.from(
            (async function* () {
              for await (const l of lines) yield Buffer.from(`${l.log}\n`);
            })(),
          );
          await pipeToSocket(raw, socket);
          socket.close(1000);
        } catch (e) {
          socket.close(1011, (e instanceof Error ? e.message : String(e)).slice(0, 120));
        }
      },
    );
  };
