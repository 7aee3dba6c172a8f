import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { IMAGES_UNAVAILABLE } from '@orrery/contract';
import type { AppContext } from '../../context.js';
import { HttpError } from '../../http/errors.js';
import {
  authorizeRepo,
  RegistryError,
  resolveBasicPrincipal,
  sendRegistryError,
  unauthorizedRegistry,
} from './auth.js';
import { nextLink, pageOf, readableRepositories } from './catalog.js';
import { parseV2, placeOf } from './names.js';
import { proxy } from './proxy.js';
import type { Registry, Upstream } from './upstream.js';

const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;
const unavailable = () => new RegistryError(503, 'UNAVAILABLE', IMAGES_UNAVAILABLE);

function toRegistryError(err: unknown): RegistryError {
  if (err instanceof RegistryError) return err;
  if (err instanceof HttpError && err.status === 401) return unauthorizedRegistry();
  if (err instanceof HttpError) return new RegistryError(err.status, 'DENIED', err.message);
  const cause = (err as { cause?: { code?: string } }).cause?.code;
  if (['ECONNREFUSED', 'ECONNRESET', 'ENOENT', 'UND_ERR_SOCKET'].includes(cause ?? '')) {
    return new RegistryError(503, 'UNAVAILABLE', 'The registry is restarting, try again');
  }
  return new RegistryError(500, 'UNKNOWN', 'Internal server error');
}

/**
 * `/v2/`: the registry API in front of the upstream registry. Outside `/api`, so
 * access is enforced here: Basic or Bearer auth, and `image://CLUSTER/ORG/PROJECT/NAME` read for
 * pulls, write for pushes. Bodies are streamed both ways (no content-type parsing here).
 */
export function registryRoutes(ctx: AppContext, upstream: Upstream) {
  return async (app: FastifyInstance) => {
    app.removeAllContentTypeParsers();
    app.addContentTypeParser('*', (_req, _payload, done) => done(null));
    app.setErrorHandler((err, request, reply) => {
      const e = toRegistryError(err);
      if (e.status >= 500) request.log.error({ err }, 'registry request failed');
      return sendRegistryError(reply, e);
    });
    app.addHook('onRequest', async (request, reply) => {
      reply.header('docker-distribution-api-version', 'registry/2.0');
      await resolveBasicPrincipal(ctx, request);
    });

    const handler = async (request: FastifyRequest, reply: FastifyReply) => {
      const [rawPath, rawQuery] = splitUrl(request.url);
      const target = parseV2(rawPath.replace(/^\/v2\/?/, ''), request.method);
      if (!request.principal) throw unauthorizedRegistry();
      if (!target) throw new RegistryError(404, 'NOT_FOUND', 'Not found');
      const registry = await upstream.registry();
      if (!registry) throw unavailable();
      if (target.kind === 'base') return reply.send({});
      if (target.kind === 'catalog') return catalog(request, reply, registry);
      const place = await placeOf(ctx.db, target.repository);
      if (!place) {
        throw new RegistryError(400, 'NAME_INVALID', 'Repository names are ORG/PROJECT/NAME');
      }
      await authorizeRepo(request, place, target.push ? 'write' : 'read');
      let query = rawQuery;
      if (target.rest.startsWith('blobs/uploads') && request.method === 'POST') {
        query = await checkMount(request, rawQuery);
      }
      return proxy(request, reply, registry, `/v2/${place.repository}/${target.rest}${query}`);
    };

    /** A cross-repository mount reads the source: without read on it, a plain upload starts. */
    async function checkMount(request: FastifyRequest, rawQuery: string) {
      const q = new URLSearchParams(rawQuery.slice(1));
      const from = q.get('from');
      if (!from) return rawQuery;
      const source = await placeOf(ctx.db, from);
      const ok =
        source &&
        (await authorizeRepo(request, source, 'read').then(
          () => true,
          () => false,
        ));
      if (ok) return rawQuery;
      q.delete('from');
      q.delete('mount');
      return q.size ? `?${q.toString()}` : '';
    }

    async function catalog(request: FastifyRequest, reply: FastifyReply, registry: Registry) {
      const q = request.query as Record<string, string | undefined>;
      const n = q.n !== undefined && /^\d+$/.test(q.n) ? Number(q.n) : null;
      if (n !== null && n < 1) throw new RegistryError(400, 'PAGINATION_NUMBER_INVALID', 'n < 1');
      const only = { org: q.org || undefined, project: q.project || undefined };
      const places = await readableRepositories(ctx.db, registry, await request.grants(), only);
      const { page, more } = pageOf(
        places.map((p) => p.repository),
        n,
        q.last ?? null,
      );
      if (more && n !== null) {
        const keep = Object.fromEntries(
          Object.entries(only).filter((e): e is [string, string] => !!e[1]),
        );
        reply.header('link', nextLink('/v2/_catalog', keep, n, page[page.length - 1]));
      }
      return reply.send({ repositories: page });
    }

    app.route({ method: [...METHODS], url: '/v2', exposeHeadRoute: false, handler });
    app.route({ method: [...METHODS], url: '/v2/*', exposeHeadRoute: false, handler });
  };
}

function splitUrl(url: string): [string, string] {
  const i = url.indexOf('?');
  return i < 0 ? [url, ''] : [url.slice(0, i), url.slice(i)];
}
