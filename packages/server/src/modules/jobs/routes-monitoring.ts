import { connect } from 'node:net';
import type { Readable } from 'node:stream';
import { z } from 'zod';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { WebSocket } from 'ws';
import {
  JobCapacity,
  JobLogQuery,
  JobMetrics,
  JobRuntimeInfo,
  JobSaveBody,
  JobWorkerQuery,
  isFinalJobStatus,
  type Action,
  type JobStatus,
  type JobTopSample,
} from '@orrery/contract';
import type { AppContext } from '../../context.js';
import { bearerOf, requireUser } from '../../auth/principal.js';
import { HttpError, invalid, notFound, validationOf } from '../../http/errors.js';
import { errorResponses } from '../../http/route.js';
import { channelFrame, pipeToSocket, writePaced } from '../../http/ws-stream.js';
import type { ExecSession } from '../../runtime/driver.js';
import { ndjsonStream } from '../../http/ndjson.js';
import type { JobRow } from './store.js';
import { containerOf, workersOf } from './container.js';
import type { JobsService } from './service.js';
import { jobAgain, jobFor as findJob } from './found.js';
import { markLogsRemoved, presetCapacity } from './service-monitoring.js';
import { workersRefusal } from './admitting.js';
import type { MetricsHistory } from './metrics-history.js';

const OneJob = z.object({ job: z.string().min(1) });
const MIB = 2 ** 20;

const topSample = (s: {
  cpu: number;
  memoryBytes: number;
  gpuDutyCycle?: number;
  gpuMemoryBytes?: number;
  timestamp: number;
}): JobTopSample => ({
  cpu: s.cpu,
  memory: s.memoryBytes / MIB,
  memory_bytes: s.memoryBytes,
  timestamp: s.timestamp,
  ...(s.gpuDutyCycle === undefined ? {} : { gpu_duty_cycle: s.gpuDutyCycle }),
  ...(s.gpuMemoryBytes === undefined
    ? {}
    : { gpu_memory: s.gpuMemoryBytes / MIB, gpu_memory_bytes: s.gpuMemoryBytes }),
});

/** A resize frame (`{"height", "width"}`); one that is not JSON is ignored, as a terminal would. */
const resize = (session: ExecSession, json: Buffer) => {
  try {
    const size = JSON.parse(json.toString()) as { height: number; width: number };
    session.resize?.(size.height, size.width);
  } catch {
    // A bad frame must not end the session (a throw here would end the server).
  }
};

/**
 * `?worker=N`: one worker of the job, by its rank; absent, or the job has one worker: undefined
 * (the whole job). A rank the job does not have is a 400.
 */
function workerOf(j: JobRow, query: unknown): number | undefined {
  const parsed = JobWorkerQuery.safeParse(query);
  if (!parsed.success) throw validationOf(parsed.error);
  const { worker } = parsed.data;
  const workers = workersOf(j);
  if (worker !== undefined && worker >= workers)
    throw invalid('worker', `The job has ${workers} worker(s), numbered from 0`);
  // One worker's own is the whole job of one.
  return workers > 1 ? worker : undefined;
}

/** Closes a socket with an error the CLI shows (1011 = server error). */
const closeWith = (socket: WebSocket, e: unknown) =>
  socket.close(1011, (e instanceof Error ? e.message : String(e)).slice(0, 120));

/**
 * Monitoring at the cluster's `monitoring_url`: logs over HTTP and WebSocket,
 * live `top`, `save`, `capacity`, and `exec` where the runtime supports it.
 */
export const monitoringRoutes =
  (ctx: AppContext, jobs: JobsService, history: MetricsHistory): FastifyPluginAsyncZod =>
  async (app) => {
    const driver = jobs.driver;
    const jobFor = (request: FastifyRequest, id: string, action: Action) =>
      findJob(ctx.db, request, id, action);
    const finished = (j: JobRow) => isFinalJobStatus(j.status as JobStatus);
    /**
     * A WebSocket route's job, found and authorized in a preHandler: a refusal is then an HTTP
     * status on the upgrade request (401, 404, 400), not an accepted socket closed with 1011.
     */
    const upgraded = new WeakMap<FastifyRequest, JobRow>();
    const jobBeforeUpgrade =
      (action: Action, refuse?: (j: JobRow, request: FastifyRequest) => HttpError | null) =>
      async (request: FastifyRequest) => {
        const j = await jobFor(request, (request.params as z.infer<typeof OneJob>).job, action);
        const refused = refuse?.(j, request);
        if (refused) throw refused;
        upgraded.set(request, j);
      };
    const logsOf = (j: JobRow, q: z.infer<typeof JobLogQuery>): Promise<Readable> => {
      const worker = workerOf(j, q);
      return driver.logs(j.id, {
        since: q.since ? new Date(q.since) : undefined,
        follow: !finished(j),
        timestamps: q.timestamps ?? false,
        ...(worker !== undefined ? { worker } : {}),
      });
    };
    /** A WebSocket route's `?worker=N`, checked before the upgrade (a 400, as logs). */
    const checkWorker = (j: JobRow, request: FastifyRequest) => {
      workerOf(j, request.query);
      return null;
    };

    app.get(
      '/api/v1/jobs/capacity',
      {
        config: { access: 'user-or-token' },
        schema: { tags: ['monitoring'], response: { 200: JobCapacity, ...errorResponses } },
      },
      async () => presetCapacity(ctx.clusterCatalog, driver),
    );

    app.get(
      '/api/v1/jobs/runtime',
      {
        config: { access: 'user-or-token' },
        schema: { tags: ['monitoring'], response: { 200: JobRuntimeInfo, ...errorResponses } },
      },
      // What the create form says before Create: only the docker runtime runs the image.
      async (): Promise<JobRuntimeInfo> => ({
        name: driver.name,
        can_save_image: !!driver.save,
        uses_image: driver.name !== 'process',
        ...(driver.refusal ? { refused_reason: driver.refusal } : {}),
        ...(driver.notIsolated ? { isolation_warning: driver.notIsolated } : {}),
        ...(workersRefusal(driver) ? { workers_refusal: workersRefusal(driver) } : {}),
        ...(driver.jobRefusals?.volumes
          ? { volumes_refused_reason: driver.jobRefusals.volumes }
          : {}),
        ...(driver.jobRefusals?.http ? { http_refused_reason: driver.jobRefusals.http } : {}),
        ...(driver.assignsHttpPort ? { http_port_assigned: true } : {}),
      }),
    );

    app.get(
      '/api/v1/jobs/:job/metrics',
      {
        config: { access: 'user-or-token' },
        schema: {
          tags: ['monitoring'],
          params: OneJob,
          response: { 200: JobMetrics, ...errorResponses },
        },
      },
      async (request): Promise<JobMetrics> => {
        const j = await jobFor(request, request.params.job, 'read');
        return { samples: history.samples(j.id).map(topSample) };
      },
    );

    app.get(
      '/api/v1/jobs/:job/log',
      {
        config: { access: 'user-or-token' },
        schema: { tags: ['monitoring'], params: OneJob, querystring: JobLogQuery },
      },
      async (request, reply) => {
        const j = await jobFor(request, request.params.job, 'read');
        if (j.logsRemoved) throw notFound('The logs of this job were removed');
        const stream = await logsOf(j, request.query);
        request.raw.on('close', () => stream.destroy());
        return reply.type('text/plain; charset=utf-8').send(stream);
      },
    );

    app.delete(
      '/api/v1/jobs/:job/log',
      {
        config: { access: 'user-or-token' },
        schema: {
          tags: ['monitoring'],
          params: OneJob,
          response: { 204: z.null(), ...errorResponses },
        },
      },
      async (request, reply) => {
        const j = await jobFor(request, request.params.job, 'write');
        await markLogsRemoved(ctx.db, j);
        return reply.status(204).send(null);
      },
    );

    app.get(
      '/api/v1/jobs/:job/log_ws',
      {
        websocket: true,
        config: { access: 'user-or-token' },
        schema: { params: OneJob, querystring: JobLogQuery },
        preHandler: jobBeforeUpgrade('read'),
      },
      async (socket, request) => {
        try {
          const j = upgraded.get(request)!;
          const stream = await logsOf(j, request.query as z.infer<typeof JobLogQuery>);
          await pipeToSocket(stream, socket);
          socket.close(1000);
        } catch (e) {
          closeWith(socket, e);
        }
      },
    );

    app.get(
      '/api/v1/jobs/:job/top',
      {
        websocket: true,
        config: { access: 'user-or-token' },
        schema: { params: OneJob },
        preHandler: jobBeforeUpgrade('read', checkWorker),
      },
      async (socket, request) => {
        const abort = new AbortController();
        socket.on('close', () => abort.abort());
        try {
          const j = upgraded.get(request)!;
          if (j.status === 'running') {
            // One worker's, or the workers' added up.
            const worker = workerOf(j, request.query);
            for await (const s of driver.stats(j.id, abort.signal, worker)) {
              if (socket.readyState !== socket.OPEN) break;
              socket.send(JSON.stringify(topSample(s)));
            }
          }
          // No frame before the close tells the CLI the job is not running.
          if (socket.readyState === socket.OPEN) socket.close(1000);
        } catch (e) {
          if (!abort.signal.aborted) closeWith(socket, e);
        }
      },
    );

    // `apolo port-forward`: the bytes of one TCP connection to the job's port, in binary frames.
    // A job's port is reached where the ingress reaches it (the runtime's endpoint), so the port
    // it serves HTTP on is the one that can be forwarded.
    app.get(
      '/api/v1/jobs/:job/port_forward/:port',
      {
        websocket: true,
        config: { access: 'user-or-token' },
        schema: { params: OneJob.extend({ port: z.coerce.number().int().min(1).max(65535) }) },
        preHandler: jobBeforeUpgrade('write', (j, request) => {
          const { port } = request.params as { port: number };
          const http = (containerOf(j).http as { port?: number } | undefined)?.port;
          if (j.status !== 'running')
            return new HttpError('bad_request', `Job ${j.id} is not running`);
          return http === port
            ? null
            : new HttpError(
                'bad_request',
                http
                  ? `Only the job's HTTP port (${http}) can be forwarded on this installation`
                  : 'Only a job with an HTTP port (--http-port) can be forwarded on this installation',
              );
        }),
      },
      async (socket, request) => {
        // Frames that come while the job's address is looked up are kept, not dropped.
        const early: Buffer[] = [];
        const keep = (d: Buffer) => early.push(d);
        socket.on('message', keep);
        const j = upgraded.get(request)!;
        const at = await driver.endpoint(j.id).catch(() => null);
        if (!at) return socket.close(1011, `Job ${j.id} does not listen on its HTTP port yet`);
        const tcp = connect(at.port, at.host);
        for (const d of early) tcp.write(d);
        socket.off('message', keep);
        socket.on('message', (d: Buffer) => tcp.write(d));
        tcp.on('data', (d) => socket.send(d, { binary: true }));
        tcp.on('close', () => socket.readyState === socket.OPEN && socket.close(1000));
        tcp.on('error', (e) => socket.readyState === socket.OPEN && closeWith(socket, e));
        socket.on('close', () => tcp.destroy());
      },
    );

    app.post(
      '/api/v1/jobs/:job/save',
      {
        config: { access: 'user-or-token' },
        schema: { tags: ['monitoring'], params: OneJob, body: JobSaveBody },
      },
      async (request, reply) => {
        const caller = requireUser(request);
        const j = await jobFor(request, request.params.job, 'write');
        if (!driver.save) {
          throw new HttpError(
            'bad_request',
            `The ${driver.name} runtime cannot save a job's image`,
          );
        }
        if (j.status !== 'running')
          throw new HttpError('conflict', 'Only a running job can be saved');
        const token = bearerOf(request);
        const image = request.body.container.image;
        const progress = driver.save(j.id, image, {
          username: caller.username,
          password: token ?? '',
        });
        // Each line as it comes (the CLI shows the push's progress live), ended as Docker does.
        return reply.type('application/x-ndjson').send(
          ndjsonStream(progress, {
            batch: 0,
            eol: '\r\n',
            errorLine: (e) => {
              const message = e instanceof Error ? e.message : String(e);
              return { error: message, errorDetail: { message } };
            },
          }),
        );
      },
    );

    app.post(
      '/api/v1/jobs/:job/kill',
      {
        config: { access: 'user-or-token' },
        schema: { params: OneJob, response: { 204: z.null(), ...errorResponses } },
      },
      async (request, reply) => {
        const j = await jobFor(request, request.params.job, 'write');
        await jobs.kill(j);
        return reply.status(204).send(null);
      },
    );

    /**
     * attach. On a runtime with `attach` (kubernetes) a running job's own stdin
     * and output are relayed like exec's. The local runtimes give a job no stdin to write to, so
     * there attach relays no input and no output (the CLI prints the output it reads from `log_ws` meanwhile); it
     * holds the session until the job ends and then sends the exit code on channel 3, which is
     * what `apolo run` waits for.
     */
    app.get(
      '/api/v1/jobs/:job/attach',
      {
        websocket: true,
        config: { access: 'user-or-token' },
        schema: { params: OneJob },
        preHandler: jobBeforeUpgrade('write', (j, request) => {
          const q = request.query as Record<string, string | undefined>;
          return q.tty === '1' && q.stdout === '1' && q.stderr === '1'
            ? new HttpError('bad_request', 'tty with both stdout and stderr cannot be attached')
            : checkWorker(j, request);
        }),
      },
      async (socket, request) => {
        let open = true;
        let j = upgraded.get(request)!;
        // Watched before it is read again: a change in between is not missed.
        const watch = jobs.watches.watch(j.id);
        socket.on('close', () => {
          open = false;
          watch.close();
        });
        try {
          j = await jobAgain(ctx.db, j);
          if (driver.attach && j.status === 'running') {
            // The job's own stdin and output (the kubernetes runtime keeps them open).
            const early: Buffer[] = [];
            let onFrame: (data: Buffer) => void = (data) => void early.push(data);
            socket.on('message', (data: Buffer) => onFrame(data));
            const q = request.query as Record<string, string | undefined>;
            const session = await driver.attach(j.id, {
              command: [],
              tty: q.tty === '1' || q.tty === 'true',
              stdin: q.stdin === '1' || q.stdin === 'true',
              worker: workerOf(j, q),
            });
            await bridge(socket, session, early, (f) => (onFrame = f));
            return;
          }
          while (open && !finished(j)) {
            // Events (of any replica) wake it at once; the recheck only bounds the wait for
            // one lost with a connection (ORRERY_JOB_STATUS_RECHECK).
            await watch.next(ctx.config.jobStatusRecheckSeconds * 1000);
            j = await jobAgain(ctx.db, j);
          }
          if (!open) return;
          const exit = JSON.stringify({
            exit_code: j.exitCode ?? (j.status === 'succeeded' ? 0 : 1),
          });
          socket.send(channelFrame(3, Buffer.from(exit)), { binary: true });
          socket.close(1000);
        } catch (e) {
          closeWith(socket, e);
        }
      },
    );

    // exec: binary frames, first byte the channel (0 stdin, 1 stdout, 2 stderr, 3 exit, 4 resize).
    app.get(
      '/api/v1/jobs/:job/exec',
      {
        websocket: true,
        config: { access: 'user-or-token' },
        schema: { params: OneJob },
        preHandler: jobBeforeUpgrade('write', (j, request) =>
          !driver.exec
            ? new HttpError('bad_request', `The ${driver.name} runtime cannot exec`)
            : j.status !== 'running'
              ? new HttpError('conflict', 'The job is not running')
              : checkWorker(j, request),
        ),
      },
      async (socket, request) => {
        // Frames typed ahead wait for the session: in the kernel, the socket not being read until
        // then, and the few already read here.
        const early: Buffer[] = [];
        let onFrame: (data: Buffer) => void = (data) => void early.push(data);
        socket.on('message', (data: Buffer) => onFrame(data));
        socket.pause();
        try {
          const q = request.query as Record<string, string | undefined>;
          const j = upgraded.get(request)!;
          const session = await driver.exec!(j.id, {
            command: ['/bin/sh', '-c', q.cmd ?? 'sh'],
            tty: q.tty === '1' || q.tty === 'true',
            stdin: q.stdin === '1' || q.stdin === 'true',
            // Worker 0 unless the caller names another (docs/jobs.md "Distributed jobs").
            worker: workerOf(j, q),
          });
          await bridge(socket, session, early, (f) => (onFrame = f));
        } catch (e) {
          // Read again, or the client's answer to the close would wait in the kernel.
          socket.resume();
          closeWith(socket, e);
        }
      },
    );
  };

/**
 * Relays a session over the channel protocol: output on channels 1 and 2 as the reader takes
 * it, stdin (channel 0) and resizes (4) into the session, the exit code on channel 3.
 * `early` holds the frames that came before the session; `listen` installs the frame handler.
 */
async function bridge(
  socket: WebSocket,
  session: ExecSession,
  early: Buffer[],
  listen: (onFrame: (data: Buffer) => void) => void,
) {
  // The command's output waits for the reader: its pipes fill and it blocks, as in a
  // terminal; a reader that leaves closes them.
  socket.once('close', () => session.stdin?.end());
  // A command that exits without reading its input: what is still sent is dropped.
  session.stdin?.on('error', () => undefined);
  const output = Promise.all([
    pipeToSocket(session.stdout, socket, (d) => channelFrame(1, d)),
    session.stderr && pipeToSocket(session.stderr, socket, (d) => channelFrame(2, d)),
  ]);
  const onFrame = (data: Buffer) => {
    if (data[0] === 0 && session.stdin) writePaced(session.stdin, data.subarray(1), socket);
    if (data[0] === 4) resize(session, data.subarray(1));
  };
  listen(onFrame);
  early.splice(0).forEach(onFrame);
  socket.resume();
  const [code] = await Promise.all([session.exitCode, output]);
  socket.send(channelFrame(3, Buffer.from(JSON.stringify({ exit_code: code }))), {
    binary: true,
  });
  socket.close(1000);
}
