import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import fastifyStatic from '@fastify/static';

export const WEB_DIST = fileURLToPath(new URL('../../../web/dist', import.meta.url));
const API_PREFIX = /^\/(api|apis|oidc|docs|metrics|healthz|readyz)(\/|$|\?)/;

/**
 * Serves the built console, with the SPA fallback: any other GET that accepts HTML gets
 * index.html, so that deep links and reloads work.
 */
export async function registerWeb(app: FastifyInstance, dist = WEB_DIST) {
  if (!existsSync(dist)) {
    app.log.warn({ dist }, 'console build not found; run `npm run build`');
    return;
  }
  await app.register(fastifyStatic, {
    root: dist,
    wildcard: false,
    index: false,
    setHeaders(res, path) {
      res.header(
        'cache-control',
        path.includes('/assets/') ? 'public, max-age=31536000, immutable' : 'no-cache',
      );
    },
  });
  app.get('/*', { config: { access: 'public' } }, (request, reply) => {
    // A missing file (an asset of another build) is a 404, not the console page.
    if (API_PREFIX.test(request.url) || /\.[a-z0-9]+$/i.test(request.url.split('?')[0])) {
      return reply
        .status(404)
        .send({ error: 'not_found', message: `No route GET ${request.url.split('?')[0]}` });
    }
    return reply.header('cache-control', 'no-cache').sendFile('index.html');
  });
}
