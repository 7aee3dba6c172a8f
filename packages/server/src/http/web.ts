import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import fastifyStatic from '@fastify/static';
import type { Config } from '../config.js';
import { oidcEndpoints } from '../auth/endpoints.js';
import { consolePageHeaders } from './security-headers.js';

export const WEB_DIST = fileURLToPath(new URL('../../../web/dist', import.meta.url));
const API_PREFIX = /^\/(api|apis|oidc|docs|metrics|healthz|readyz)(\/|$|\?)/;

/**
 * The provider's endpoints the console calls, for its CSP. An external issuer's are read from its
 * discovery document in the background: a console page never waits for that issuer, and until
 * they are known (or while it cannot be reached) the policy names the issuer's own origin.
 */
function providerEndpoints(config: Config, log: FastifyBaseLogger) {
  let known: string[] = [];
  let asking = false;
  const ask = () => {
    if (asking || known.length) return;
    asking = true;
    oidcEndpoints(config)
      .then(
        (e) => (known = [e.authorization, e.token, e.endSession]),
        (err: Error) => log.warn({ err }, 'console CSP: the issuer’s endpoints are not known yet'),
      )
      .finally(() => (asking = false));
  };
  ask();
  return () => {
    ask();
    return known;
  };
}

/**
 * Serves the built console, with the SPA fallback: any other GET that accepts HTML gets
 * index.html, so that deep links and reloads work. Every console page carries the console's
 * Content-Security-Policy (docs/operations.md, "Console sessions").
 */
export async function registerWeb(app: FastifyInstance, config: Config, dist = WEB_DIST) {
  if (!existsSync(dist)) {
    app.log.warn({ dist }, 'console build not found; run `npm run build`');
    return;
  }
  await app.register(fastifyStatic, {
    root: dist,
    wildcard: false,
    index: false,
    setHeaders(res, path) {
      // index.html asked for by name is the console too: the same headers as every route
      // (the routes below set their own before sending it).
      if (path.endsWith('.html') && !res.hasHeader('content-security-policy')) {
        for (const [name, value] of Object.entries(consolePageHeaders(config, '/'))) {
          res.header(name, value);
        }
      }
      res.header(
        'cache-control',
        path.includes('/assets/') ? 'public, max-age=31536000, immutable' : 'no-cache',
      );
    },
  });
  const provider = providerEndpoints(config, app.log);
  app.get('/*', { config: { access: 'public' } }, (request, reply) => {
    // A missing file (an asset of another build) is a 404, not the console page.
    if (API_PREFIX.test(request.url) || /\.[a-z0-9]+$/i.test(request.url.split('?')[0])) {
      return reply
        .status(404)
        .send({ error: 'not_found', message: `No route GET ${request.url.split('?')[0]}` });
    }
    const path = request.url.split('?')[0];
    return reply
      .headers(consolePageHeaders(config, path, provider()))
      .header('cache-control', 'no-cache')
      .sendFile('index.html');
  });
}
