import { z } from 'zod';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { isFinalJobStatus, type JobStatus } from '@orrery/contract';
import type { AppContext } from '../../context.js';
import { jobFor } from './found.js';
import type { JobsService } from './service.js';
import { jobById, type JobRow } from './store.js';
import { jobWires } from './wire.js';

const OneJob = z.object({ job: z.string().min(1) });

/** What a reader of the job page sees change: its status and why, and its restarts. */
const statusKey = (j: JobRow) =>
  JSON.stringify([j.status, j.reason, j.statusDescription, j.restarts, j.startedAt?.getTime()]);

/**
 * `GET /api/v1/jobs/{job}/status_ws` (Orrery's, read access): the job as `GET /api/v1/jobs/{job}`
 * answers it, sent as soon as the socket opens and again at each change of its status, from
 * whichever replica made it (the job's events, jobs/watches.ts); closed (1000) once the job has
 * finished and that was sent. The console's job page follows a job with it, so a job that ends
 * in a tenth of a second does not show as pending until the next poll.
 */
export const statusSocketRoutes =
  (ctx: AppContext, jobs: JobsService): FastifyPluginAsyncZod =>
  async (app) => {
    // Found and authorized before the upgrade: a refusal is an HTTP status (404, 401).
    const found = new WeakMap<FastifyRequest, JobRow>();
    app.get(
      '/api/v1/jobs/:job/status_ws',
      {
        websocket: true,
        config: { access: 'user-or-token' },
        schema: { params: OneJob },
        preHandler: async (request) => {
          const { job } = request.params as z.infer<typeof OneJob>;
          found.set(request, await jobFor(ctx.db, request, job, 'read'));
        },
      },
      async (socket, request) => {
        const id = found.get(request)!.id;
        let open = true;
        // Watched before the first read: a change in between is not missed.
        const watch = jobs.watches.watch(id);
        socket.on('close', () => {
          open = false;
          watch.close();
        });
        let sent = '';
        try {
          while (open) {
            const j = await jobById(ctx.db, id);
            if (!j) break;
            const key = statusKey(j);
            if (key !== sent) {
              const [wire] = await jobWires(ctx, jobs, [j]);
              if (!open) break;
              socket.send(JSON.stringify(wire));
              sent = key;
            }
            if (isFinalJobStatus(j.status as JobStatus)) break;
            // Events wake it at once; the recheck only bounds the wait for one that was lost
            // with a replica's connection (ORRERY_JOB_STATUS_RECHECK).
            await watch.next(ctx.config.jobStatusRecheckSeconds * 1000);
          }
          if (open) socket.close(1000);
        } catch (e) {
          if (open) socket.close(1011, (e instanceof Error ? e.message : String(e)).slice(0, 120));
        }
      },
    );
  };
