import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import replyFrom from '@fastify/reply-from';
import { WebSocket, type RawData } from 'ws';
import { allows } from '../../auth/permissions.js';
import type { AppContext } from '../../context.js';
import { userByUsername } from '../users/store.js';
import { principalOf, tokenAdmits } from '../../auth/principal-hook.js';
import { grantsOf } from '../../auth/permissions.js';
import { jobUri } from '@orrery/contract';
import { containerOf, jobById, jobByIngressName, type JobRow } from './store.js';
import type { JobsService } from './service.js';
import { ingressPath, isIngressNameKey, pathForJob } from './wire.js';
import { sendPaced } from '../../http/ws-stream.js';

/** The query parameter the console adds when it opens a job's URL in a new tab. */
export const INGRESS_TOKEN_PARAM = 'orrery_token';
const COOKIE = 'orrery_job_token';

const cookieOf = (request: FastifyRequest) => {
  const raw = request.headers.cookie ?? '';
  for (const part of raw.split(';')) {
    const [k, ...v] = part.trim().split('=');
    if (k !== COOKIE) continue;
    try {
      return decodeURIComponent(v.join('='));
    } catch {
      return null; // a malformed cookie is no token
    }
  }
  return null;
};

/**
 * HTTP ingress (issue 4): a job's HTTP port is reached at `/ingress/{id}/…` through the server,
 * WebSocket upgrades included; a named job also at `/ingress/{name}--{project}--{org}/…`
 * (`http_url_named`), which reaches whichever run of that name is live. `/jobs/{id}` belongs to the console's job page, hence the prefix.
 * With `requires_auth` the caller needs read permission on the job: a Bearer token (CLI,
 * scripts), or the console's token handed over once in `?orrery_token=` and then kept in an
 * HttpOnly cookie scoped to this job's path. Neither reaches the job.
 */
export async function registerIngress(app: FastifyInstance, ctx: AppContext, jobs: JobsService) {
  await app.register(replyFrom, { undici: { connections: 32 } });

  /** What follows the job's ingress path, query included. */
  const rest = (request: FastifyRequest) => {
    const { id } = request.params as { id: string };
    const path = request.url.slice(`/ingress/${id}`.length) || '/';
    return path.startsWith('/') ? path : `/${path}`;
  };

  /** Null when the caller may reach the job, else the refusal: who they are, or that they may not. */
  const refusal = async (request: FastifyRequest, j: JobRow, token: string | null) => {
    if (!containerOf(j).http?.requires_auth) return null;
    let principal = request.principal;
    if (!principal && token) {
      const claims = await ctx.verifier.verify(token);
      const user = claims && (await userByUsername(ctx.db, claims.username));
      if (user && (await tokenAdmits(ctx.db, request, token, claims, user))) {
        principal = principalOf(user);
      }
    }
    if (!principal) return { refuse: 401, message: 'Sign in to reach this job' };
    const grants = await grantsOf(ctx.db, principal);
    return allows(grants, jobUri(j.clusterName, j.orgName, j.projectName, j.id), 'read')
      ? null
      : { refuse: 403, message: 'You have no access to this job' };
  };

  /** Where a request goes on the job: its port, and the path the job receives. */
  interface Target {
    host: string;
    port: number;
    path: string;
  }

  type Routed =
    { refuse: number; message: string } | { redirect: string; cookie: string } | { target: Target };

  /** Where a request goes: the job's port, a redirect that stores the token, or a refusal. */
  const route = async (request: FastifyRequest): Promise<Routed> => {
    const { id } = request.params as { id: string };
    const j = isIngressNameKey(id) ? await jobByIngressName(ctx.db, id) : await jobById(ctx.db, id);
    if (!j || !containerOf(j).http) {
      return { refuse: 404, message: 'No such job, or it serves no HTTP' };
    }
    const query = request.query as Record<string, string | undefined>;
    const handed = query[INGRESS_TOKEN_PARAM];
    const refused = await refusal(request, j, handed ?? cookieOf(request));
    if (refused) return refused;
    if (handed) {
      // Keep the token in a cookie for this job only, and drop it from the address bar.
      const url = new URL(request.url, 'http://x');
      url.searchParams.delete(INGRESS_TOKEN_PARAM);
      const secure = ctx.config.publicUrl.startsWith('https:') ? '; Secure' : '';
      return {
        redirect: url.pathname + url.search,
        cookie: `${COOKIE}=${encodeURIComponent(handed)}; Path=${ingressPath(id)}; HttpOnly; SameSite=Lax${secure}`,
      };
    }
    const endpoint = await jobs.driver.endpoint(j.id);
    if (!endpoint || j.status !== 'running') {
      return { refuse: 502, message: 'The job is not serving HTTP yet' };
    }
    return { target: { ...endpoint, path: pathForJob(j, ctx.config.publicUrl, rest(request)) } };
  };

  const proxy = async (request: FastifyRequest, reply: FastifyReply) => {
    const r = await route(request);
    if ('refuse' in r) return reply.status(r.refuse).type('text/plain').send(r.message);
    if ('redirect' in r) return reply.header('set-cookie', r.cookie).redirect(r.redirect, 303);
    return reply.from(`http://${r.target.host}:${r.target.port}${r.target.path}`, {
      rewriteRequestHeaders: (_req, headers) => {
        const { authorization: _a, cookie, ...others } = headers;
        const kept = (cookie ?? '')
          .split(';')
          .filter((c) => c.trim() && !c.trim().startsWith(`${COOKIE}=`))
          .join(';');
        return { ...others, ...(kept ? { cookie: kept } : {}) };
      },
    });
  };

  /**
   * An upgrade is routed before it is accepted: a refusal is an HTTP status on the upgrade
   * request (404, 401), as for any other request, not an accepted socket closed at once.
   */
  const upgrades = new WeakMap<FastifyRequest, Target>();
  const routeUpgrade = async (request: FastifyRequest, reply: FastifyReply) => {
    if (!request.ws) return;
    const r = await route(request);
    if ('refuse' in r) return reply.status(r.refuse).type('text/plain').send(r.message);
    // A redirect cannot be followed by a WebSocket client: the console opens the page first.
    if ('redirect' in r) {
      return reply.status(400).type('text/plain').send('Open the job from the console first');
    }
    upgrades.set(request, r.target);
  };

  // WebSocket upgrades are GET requests: the GET route carries both handlers.
  app.route({
    method: 'GET',
    url: '/ingress/:id/*',
    config: { access: 'public' },
    preHandler: routeUpgrade,
    handler: proxy,
    wsHandler: (socket, request) => {
      // Listen at once: what the client sends while the job's port is reached would be lost.
      const pending: Array<{ data: RawData; binary: boolean }> = [];
      let upstream: WebSocket | null = null;
      socket.on('message', (data, binary) => {
        if (upstream?.readyState === WebSocket.OPEN)
          return sendPaced(upstream, data, binary, socket);
        pending.push({ data, binary });
      });
      socket.on('close', () => upstream?.close());
      // Until the job's socket is open the client's is not read further (what it sends waits in
      // the kernel); read again before closing, or its answer to the close would wait there too.
      socket.pause();
      const closeClient = (code: number, reason?: string) => {
        socket.resume();
        socket.close(code, reason);
      };
      const target = upgrades.get(request)!;
      const up = new WebSocket(`ws://${target.host}:${target.port}${target.path}`);
      upstream = up;
      up.on('open', () => {
        socket.resume();
        pending.splice(0).forEach((m) => sendPaced(up, m.data, m.binary, socket));
      });
      // Each side stops reading while the other is behind, so a slow peer costs no memory here.
      up.on('message', (data, binary) => sendPaced(socket, data, binary, up));
      up.on('close', (code) =>
        closeClient(code >= 1000 && code < 5000 && code !== 1005 && code !== 1006 ? code : 1000),
      );
      up.on('error', () => closeClient(1011, 'The job closed the connection'));
    },
  });
  app.route({
    method: ['POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'],
    url: '/ingress/:id/*',
    config: { access: 'public' },
    handler: proxy,
  });
  app.get('/ingress/:id', { config: { access: 'public' } }, (request, reply) =>
    reply.redirect(`${request.url.split('?')[0]}/`, 308),
  );
}
