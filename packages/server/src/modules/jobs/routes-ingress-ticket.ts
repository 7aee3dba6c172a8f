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
import { jobOfKey } from './found.js';
import { containerOf } from './container.js';
import { interactiveOf, isIngressNameKey } from './wire.js';

const OneJob = z.object({ job: z.string().min(1) });
/** Where on the job's host to land: a path of it (its query included), its root by default. */
const Landing = z.object({ path: z.string().max(2000).optional() });

/**
 * The console's Open, and its `/open-job` page that a job's address sends a browser to: the
 * job's URL (by id, or by name for a name key; at `path`) with a ticket for that host alone, so
 * that the user's API token never appears in an address or on the job's host (ingress-auth.ts).
 * The same permission as the job's host asks for: read, and write for an interactive app's job.
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
          querystring: Landing,
          response: { 200: IngressTicket, ...errorResponses },
        },
      },
      async (request) => {
        const caller = requireUser(request);
        // A job id, or the name key of its address by name (`{name}--{project}--{org}`).
        const key = request.params.job;
        const j = await jobOfKey(ctx.db, key);
        const missing = `Job ${key} not found`;
        if (!j) throw notFound(missing);
        const uri = jobUri(j.clusterName, j.orgName, j.projectName, j.id);
        await authorize(request, uri, 'read', missing);
        const kind = interactiveOf(j);
        if (kind && !allows(await request.grants(), uri, 'write')) {
          throw new HttpError('forbidden', `Opening this ${kind} needs write access to the job`);
        }
        if (!containerOf(j).http) throw new HttpError('conflict', 'The job serves no HTTP');
        const host = isIngressNameKey(key) ? key : j.id;
        const ticket = await issueTicket(ctx.db, caller.id, host);
        const url = new URL(jobUrl(ctx.config, host));
        const landing = new URL(request.query.path ?? '/', url);
        // Only a path of the job's own host: anything else lands on its root.
        if (landing.origin === url.origin) {
          url.pathname = landing.pathname;
          url.search = landing.search;
        }
        url.searchParams.set(TICKET_PARAM, ticket);
        return { url: url.toString() };
      },
    );
  };
