import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import replyFrom from '@fastify/reply-from';
import { WebSocket, type RawData } from 'ws';
import { jobUri } from '@orrery/contract';
import { allows, grantsOf } from '../../auth/permissions.js';
import type { Principal } from '../../auth/principal.js';
import type { AppContext } from '../../context.js';
import { sameOrigin } from '../../http/origin.js';
import { sendPaced } from '../../http/ws-stream.js';
import {
  COOKIE_TTL_S,
  TICKET_PARAM,
  callerOf,
  consumeTicket,
  cookieName,
  signCredential,
  splitCookies,
  verifyCredential,
} from './ingress-auth.js';
import { HOST_ROUTE, hostKeyOf, requestedPath } from './ingress-host.js';
import type { JobRow } from './store.js';
import { jobOfKey } from './found.js';
import { containerOf } from './container.js';
import type { JobsService } from './service.js';
import { interactiveOf, isIngressNameKey } from './wire.js';

/** One answer for a job that does not exist and one the caller may not see: names do not leak. */
export const NO_SUCH_JOB = 'No such job, or it serves no HTTP';

interface Refusal {
  refuse: number;
  message: string;
}
interface Target {
  host: string;
  port: number;
  path: string;
  /** The client's Authorization header goes on to the job (an open job's own, never Orrery's). */
  authorization?: boolean;
}
type Routed = Refusal | { redirect: string; cookie?: string } | { target: Target };

const refusal = (refuse: number, message: string): Refusal => ({ refuse, message });

/**
 * A browser opening a page (not a script's fetch, an API client or a WebSocket): the navigation's
 * Sec-Fetch-Mode, or, from browsers that send none on plain http, a GET asking for HTML.
 */
const isNavigation = (request: FastifyRequest) => {
  if (request.ws || request.method !== 'GET') return false;
  const mode = request.headers['sec-fetch-mode'];
  if (mode !== undefined) return mode === 'navigate';
  return /\btext\/html\b/.test(request.headers.accept ?? '');
};

/**
 * HTTP ingress: a job's HTTP port is served at a host of its own, `<job id>.<ingress domain>`,
 * and a named job's also at `<name>--<project>--<org>.<ingress domain>` (ingress-host.ts),
 * WebSocket upgrades included. With `requires_auth` the caller needs read permission on the job,
 * and write permission on an interactive app's job (a terminal, a notebook, an IDE): a Bearer
 * token (CLI, scripts), or the cookie the job's host sets from a console ticket
 * (ingress-auth.ts). Neither reaches the job. `/ingress/{key}/…` on the console's origin answers
 * API clients with a Bearer header only, never a browser's page (docs/jobs.md).
 */
export async function registerIngress(
  app: FastifyInstance,
  ctx: AppContext,
  jobs: JobsService,
  cookieKey: Buffer,
) {
  await app.register(replyFrom, { undici: { connections: 32 } });
  const secure = ctx.config.publicUrl.startsWith('https:');
  const COOKIE = cookieName(secure);

  const jobOf = (key: string) => (key ? jobOfKey(ctx.db, key) : null);

  /**
   * Null when `principal` may open the job, else why not: anonymous callers are asked to sign in
   * (a name key says nothing about whether the name exists), a caller who may not read the job
   * reads as if it did not exist, and a reader of an interactive job is told what they lack.
   */
  const denial = async (j: JobRow, key: string, principal: Principal | null) => {
    if (!containerOf(j).http?.requires_auth) return null;
    if (!principal) {
      return isIngressNameKey(key)
        ? refusal(404, NO_SUCH_JOB)
        : refusal(401, 'Sign in to reach this job: open it from the console');
    }
    const grants = await grantsOf(ctx.db, principal);
    const uri = jobUri(j.clusterName, j.orgName, j.projectName, j.id);
    if (!allows(grants, uri, 'read')) return refusal(404, NO_SUCH_JOB);
    const kind = interactiveOf(j);
    if (kind && !allows(grants, uri, 'write')) {
      return refusal(403, `Opening this ${kind} needs write access to the job`);
    }
    return null;
  };

  /** Where an allowed request goes: the job's port, once it serves. */
  const targetOf = async (j: JobRow, path: string, authorization = false): Promise<Routed> => {
    const endpoint = await jobs.driver.endpoint(j.id);
    if (!endpoint || j.status !== 'running') {
      return refusal(502, 'The job is not serving HTTP yet');
    }
    return { target: { ...endpoint, path, authorization } };
  };

  /** The caller named by an `Authorization: Bearer` header (never a WebSocket sub-protocol). */
  const bearerCaller = (request: FastifyRequest) =>
    /^Bearer\s+\S/i.test(request.headers.authorization ?? '') ? request.principal : null;

  /** The caller of a job host's cookie for `key`, if it holds a valid one. */
  const cookieCaller = async (request: FastifyRequest, key: string) => {
    for (const value of splitCookies(request.headers.cookie, COOKIE).mine) {
      const principal = await callerOf(ctx.db, verifyCredential(cookieKey, value, key));
      if (principal) return principal;
    }
    return null;
  };

  /**
   * A browser that opens a job's address (its HTTP URL, by id or by name) without the job host's
   * cookie is sent to the console, which signs it in there as Open does (a ticket for this key,
   * `/open-job`), and back to the path it asked for. Any key of the domain is sent so, whether a
   * job has it or not: the console's answer, after sign-in, is the first to tell.
   */
  const toConsole = (key: string, path: string): Routed => {
    const to = new URL('/open-job', ctx.config.publicUrl);
    to.searchParams.set('key', key);
    if (path !== '/') to.searchParams.set('path', path);
    return { redirect: to.toString() };
  };

  /** A request for a job's own host. */
  const routeHost = async (request: FastifyRequest): Promise<Routed> => {
    const key = hostKeyOf(request);
    // The host route on the console's origin is no way into a job.
    if (key === null) return refusal(404, 'Not found');
    const j = await jobOf(key);
    const path = requestedPath(request);
    const url = new URL(path, 'http://x');
    const hasBearer = /^Bearer\s+\S/i.test(request.headers.authorization ?? '');
    // Read once, when first needed.
    let cookied: Promise<Principal | null> | undefined;
    const fromCookie = () => (cookied ??= cookieCaller(request, key));
    const signInFirst = async () =>
      isNavigation(request) && !hasBearer && !url.searchParams.has(TICKET_PARAM)
        ? !(await fromCookie())
        : false;
    if (!j || !containerOf(j).http) {
      return key && (await signInFirst()) ? toConsole(key, path) : refusal(404, NO_SUCH_JOB);
    }
    const protectedJob = !!containerOf(j).http?.requires_auth;
    if (protectedJob && (await signInFirst())) return toConsole(key, path);
    if (protectedJob && hasBearer && !request.principal) {
      return refusal(401, 'The token is not valid');
    }
    const ticket = url.searchParams.get(TICKET_PARAM);
    if (ticket !== null) {
      if (request.ws) return refusal(400, 'Open the job from the console first');
      const userId = await consumeTicket(ctx.db, ticket, key);
      if (!userId) {
        return refusal(
          401,
          'This link has expired or was used: open the job from the console again',
        );
      }
      const denied = await denial(j, key, await callerOf(ctx.db, userId));
      if (denied) return denied;
      // The ticket leaves the address bar: what stays is a cookie of this host alone.
      url.searchParams.delete(TICKET_PARAM);
      const attrs = `Path=/; Max-Age=${COOKIE_TTL_S}; HttpOnly; SameSite=Lax${secure ? '; Secure' : ''}`;
      return {
        redirect: url.pathname + url.search,
        cookie: `${COOKIE}=${signCredential(cookieKey, userId, key)}; ${attrs}`,
      };
    }
    const principal = bearerCaller(request) ?? (await fromCookie());
    const denied = await denial(j, key, principal);
    if (denied) return denied;
    // A page of another origin (another job, another port of this host) rides no one's
    // credentials here: its WebSocket upgrades and its unsafe requests are refused. Browsers
    // always send an Origin on upgrades; an upgrade without one must carry its own Bearer token
    // (an open job's need not).
    const unsafe = request.ws || !['GET', 'HEAD', 'OPTIONS'].includes(request.method);
    const withoutOrigin = !request.ws || (hasBearer && !!principal) || !protectedJob;
    if (unsafe && !sameOrigin(request, withoutOrigin)) {
      return refusal(403, 'Requests from another origin are refused');
    }
    // An open job may take an Authorization of its own (Dify's API does); an Orrery token never
    // reaches a job.
    return targetOf(j, path, !protectedJob && !bearerCaller(request));
  };

  /** A request for `/ingress/{key}/…` on the console's origin: API clients only. */
  const routePath = async (request: FastifyRequest): Promise<Routed> => {
    const principal = bearerCaller(request);
    // A browser sends an Origin on upgrades and unsafe requests, and has no Bearer header to send.
    if (!principal || request.headers.origin !== undefined) {
      return refusal(
        principal ? 403 : 401,
        "Jobs are served at their own address (the job's http_url); this path answers API clients with a Bearer token only",
      );
    }
    const { id } = request.params as { id: string };
    const j = await jobOf(id);
    if (!j || !containerOf(j).http) return refusal(404, NO_SUCH_JOB);
    const denied = await denial(j, id, principal);
    if (denied) return denied;
    const rest = request.url.slice(`/ingress/${id}`.length) || '/';
    return targetOf(j, rest.startsWith('/') ? rest : `/${rest}`);
  };

  const proxy =
    (route: (r: FastifyRequest) => Promise<Routed>, sandbox: boolean) =>
    async (request: FastifyRequest, reply: FastifyReply) => {
      const r = await route(request);
      if (sandbox) reply.header('content-security-policy', 'sandbox');
      if ('refuse' in r) return reply.status(r.refuse).type('text/plain').send(r.message);
      if ('redirect' in r) {
        if (r.cookie) reply.header('set-cookie', r.cookie);
        return reply.redirect(r.redirect, 303);
      }
      return reply.from(`http://${r.target.host}:${r.target.port}${r.target.path}`, {
        rewriteRequestHeaders: (_req, headers) => {
          const { authorization, cookie, ...others } = headers;
          const kept = splitCookies(cookie, COOKIE).others;
          return {
            ...others,
            ...(kept ? { cookie: kept } : {}),
            ...(r.target.authorization && authorization ? { authorization } : {}),
          };
        },
        rewriteHeaders: (headers) => {
          const out: typeof headers = { ...headers };
          // A job's cookie stays on the job's own host: one set for the whole ingress domain
          // (or a parent of the console's host) would reach other jobs' pages.
          const cookies = [headers['set-cookie'] ?? []].flat();
          if (cookies.length) {
            out['set-cookie'] = cookies.map((c) => c.replace(/;\s*domain=[^;]*/gi, ''));
          }
          if (sandbox) out['content-security-policy'] = 'sandbox';
          return out;
        },
      });
    };

  /**
   * An upgrade is routed before it is accepted: a refusal is an HTTP status on the upgrade
   * request (404, 401), as for any other request, not an accepted socket closed at once.
   */
  const upgrades = new WeakMap<FastifyRequest, Target>();
  const routeUpgrade =
    (route: (r: FastifyRequest) => Promise<Routed>) =>
    async (request: FastifyRequest, reply: FastifyReply) => {
      if (!request.ws) return;
      const r = await route(request);
      if ('refuse' in r) return reply.status(r.refuse).type('text/plain').send(r.message);
      if ('redirect' in r) {
        return reply.status(400).type('text/plain').send('Open the job from the console first');
      }
      upgrades.set(request, r.target);
    };

  const relay = (socket: WebSocket, request: FastifyRequest) => {
    // Listen at once: what the client sends while the job's port is reached would be lost.
    const pending: Array<{ data: RawData; binary: boolean }> = [];
    let upstream: WebSocket | null = null;
    socket.on('message', (data, binary) => {
      if (upstream?.readyState === WebSocket.OPEN) return sendPaced(upstream, data, binary, socket);
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
  };

  const OTHER_METHODS = ['POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] as const;
  // Every request for a job's host lands here (ingress-host.ts rewrites its URL).
  // WebSocket upgrades are GET requests: the GET route carries both handlers.
  app.route({
    method: 'GET',
    url: HOST_ROUTE,
    config: { access: 'public', jobAnswers: true },
    preHandler: routeUpgrade(routeHost),
    handler: proxy(routeHost, false),
    wsHandler: relay,
  });
  app.route({
    method: [...OTHER_METHODS],
    url: HOST_ROUTE,
    config: { access: 'public', jobAnswers: true },
    handler: proxy(routeHost, false),
  });
  // The console's origin: API clients with a Bearer header, each answer sandboxed.
  app.route({
    method: 'GET',
    url: '/ingress/:id/*',
    config: { access: 'public', jobAnswers: true },
    preHandler: routeUpgrade(routePath),
    handler: proxy(routePath, true),
    wsHandler: relay,
  });
  app.route({
    method: [...OTHER_METHODS],
    url: '/ingress/:id/*',
    config: { access: 'public', jobAnswers: true },
    handler: proxy(routePath, true),
  });
  app.get('/ingress/:id', { config: { access: 'public', jobAnswers: true } }, (request, reply) =>
    reply.redirect(`${request.url.split('?')[0]}/`, 308),
  );
}
