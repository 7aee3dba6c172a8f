import { Readable } from 'node:stream';
import { z } from 'zod';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  AppContainersQuery,
  AppLogQuery,
  ErrorBody,
  isFinalAppState,
  isFinalJobStatus,
  type AppState,
  type JobStatus,
} from '@orrery/contract';
import { authorized } from '../../http/access.js';
import { instanceProject } from './routes-templates.js';
import { ndjsonStream } from '../../http/ndjson.js';
import { pipeToSocket } from '../../http/ws-stream.js';
import { followLines, type LogSource } from './log-lines.js';
import { roleOfJob, type AppsService } from './service.js';
import type { InstanceRow } from './store.js';

const OneApp = z.object({ id: z.string().min(1) });
type LogQuery = z.infer<typeof AppLogQuery>;
type JobRow = Awaited<ReturnType<AppsService['jobsOf']>>[number];

/** How often an open log looks for jobs of the instance that started since. */
export const LOG_POLL_MS = 1000;

const roleOf = roleOfJob;
/** When a job began to run; null if it never did (its log is empty). */
const startOf = (j: JobRow) => j.startedAt ?? (j.materialized ? j.createdAt : null);

/**
 * The logs of an instance are those of every job it ran, ended ones included (an errored
 * instance's log says why), joined by the jobs that start while it is read: NDJSON for the
 * console at `{monitoring}/apps/{id}/log` (the jobs' monitoring path with `jobs` replaced by
 * `apps`), raw bytes over the CLI's `log_ws` WebSocket, and the list of its containers (job
 * roles) at `/containers`, a JSON array of names as Apolo's monitoring service answers.
 */
export const appLogRoutes =
  (apps: AppsService): FastifyPluginAsyncZod =>
  async (app) => {
    const instanceFor = async (request: FastifyRequest, id: string) => {
      const row = await apps.instance(id);
      return authorized(request, row, instanceProject, 'read', `App instance ${id} not found`);
    };

    /**
     * The lines of the instance's jobs. The jobs there are now are opened before anything is
     * sent, so that a log that cannot be read is an HTTP error with its message; a job that
     * starts later and cannot be opened yet is tried again at the next poll.
     */
    const linesOf = async (row: InstanceRow, q: LogQuery, signal: AbortSignal) => {
      const opened = new Set<string>();
      const wanted = (j: JobRow) =>
        !opened.has(j.id) &&
        startOf(j) !== null &&
        !j.logsRemoved &&
        (!q.container.length || q.container.includes(roleOf(j)));
      const open = async (j: JobRow): Promise<LogSource> => {
        const stream = await apps.jobs.driver.logs(j.id, {
          since: q.since ? new Date(q.since) : undefined,
          follow: !isFinalJobStatus(j.status as JobStatus),
          timestamps: q.timestamps ?? false,
        });
        opened.add(j.id);
        return { id: j.id, role: roleOf(j), stream };
      };
      const first = await Promise.allSettled((await apps.jobsOf(row.id)).filter(wanted).map(open));
      const initial = first.flatMap((t) => (t.status === 'fulfilled' ? [t.value] : []));
      // Closed here too: a reader gone before the first line never runs the lines' own cleanup.
      const close = () => initial.forEach((s) => s.stream.destroy());
      const failed = first.find((t) => t.status === 'rejected');
      if (failed) {
        close();
        throw failed.reason;
      }
      signal.addEventListener('abort', close, { once: true });
      const discover = async () => {
        const jobs = (await apps.jobsOf(row.id)).filter(wanted);
        const tried = await Promise.allSettled(jobs.map(open));
        return tried.flatMap((t) => (t.status === 'fulfilled' ? [t.value] : []));
      };
      const following = async () => {
        const now = await apps.instance(row.id);
        if (!now || isFinalAppState(now.state as AppState)) return false;
        if (now.state === 'queued' || now.state === 'progressing') return true;
        // A healthy app whose jobs all ended (the one-shot `job` template) says nothing more.
        const jobs = await apps.jobsOf(row.id);
        return jobs.some((j) => !isFinalJobStatus(j.status as JobStatus));
      };
      return followLines({ initial, discover, following, pollMs: LOG_POLL_MS, signal });
    };

    app.get(
      '/api/v1/apps/:id/log',
      {
        config: { access: 'user-or-token' },
        schema: { tags: ['apps'], params: OneApp, querystring: AppLogQuery },
      },
      async (request, reply) => {
        const row = await instanceFor(request, request.params.id);
        const gone = new AbortController();
        const lines = await linesOf(row, request.query, gone.signal);
        const stream = ndjsonStream(lines, { batch: 0 });
        request.raw.on('close', () => {
          gone.abort();
          stream.destroy();
        });
        return reply.type('application/x-ndjson').send(stream);
      },
    );

    app.get(
      '/api/v1/apps/:id/containers',
      {
        config: { access: 'user-or-token' },
        schema: {
          tags: ['apps'],
          params: OneApp,
          querystring: AppContainersQuery,
          response: { 200: z.array(z.string()), 404: ErrorBody },
        },
      },
      async (request) => {
        const row = await instanceFor(request, request.params.id);
        const since = request.query.since ? new Date(request.query.since) : null;
        const until = request.query.until ? new Date(request.query.until) : null;
        const ran = (j: JobRow) => {
          const start = startOf(j);
          if (!start || (until && start > until)) return false;
          return !since || !j.finishedAt || j.finishedAt >= since;
        };
        // Roles in the order their first job started; a role's later revisions are one container.
        return [...new Set((await apps.jobsOf(row.id)).filter(ran).map(roleOf))];
      },
    );

    // Authorized before the upgrade: a refusal is an HTTP status, as for the jobs' log_ws.
    const upgraded = new WeakMap<FastifyRequest, InstanceRow>();
    app.get(
      '/api/v1/apps/:id/log_ws',
      {
        websocket: true,
        config: { access: 'user-or-token' },
        schema: { params: OneApp, querystring: AppLogQuery },
        preHandler: async (request) => {
          const { id } = request.params as z.infer<typeof OneApp>;
          upgraded.set(request, await instanceFor(request, id));
        },
      },
      async (socket, request) => {
        const gone = new AbortController();
        socket.once('close', () => gone.abort());
        try {
          const lines = await linesOf(
            upgraded.get(request)!,
            request.query as LogQuery,
            gone.signal,
          );
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
