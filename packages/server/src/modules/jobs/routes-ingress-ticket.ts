import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { IngressTicket, jobUri } from '@orrery/contract';
import { allows } from '../../auth/permissions.js';
import { requireUser } from '../../auth/principal.js';
import type { AppContext } from '../../context.js';
import { authorize } from '../../http/access.js';
import { HttpError, notFound } from '../../http/errors.js';
import { errorResponses } from '../../http/route.js';
import { TICKET_PARAM, issueTicket } from './ingress-auth.js';
import { jobUrl } from './ingress-host.js';
import { containerOf, jobById } from './store.js';
import { interactiveOf } from './wire.js';

const OneJob = z.object({ job: z.string().min(1) });

/**
 * The console's Open: the job's URL with a ticket for that job alone, so that the user's API
 * token never appears in an address or on the job's host (ingress-auth.ts). The same permission
 * as the job's host asks for: read, and write for an interactive app's job.
 */
export const ingressTicketRoutes =
  (ctx: AppContext): FastifyPluginAsyncZod =>
  async (app) => {
    app.post(
      '/api/v1/jobs/:job/ingress-ticket',
      {
        config: { access: 'user' },
        schema: {
          tags: ['jobs'],
          params: OneJob,
          response: { 200: IngressTicket, ...errorResponses },
        },
      },
      async (request) => {
        const caller = requireUser(request);
        const j = await jobById(ctx.db, request.params.job);
        const missing = `Job ${request.params.job} not found`;
        if (!j) throw notFound(missing);
        const uri = jobUri(j.clusterName, j.orgName, j.projectName, j.id);
        await authorize(request, uri, 'read', missing);
        const kind = interactiveOf(j);
        if (kind && !allows(await request.grants(), uri, 'write')) {
          throw new HttpError('forbidden', `Opening this ${kind} needs write access to the job`);
        }
        if (!containerOf(j).http) throw new HttpError('conflict', 'The job serves no HTTP');
        const ticket = await issueTicket(ctx.db, caller.id, j.id);
        const url = new URL(jobUrl(ctx.config, j.id));
        url.searchParams.set(TICKET_PARAM, ticket);
        return { url: url.toString() };
      },
    );
  };
