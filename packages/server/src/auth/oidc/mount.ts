import type { IncomingMessage } from 'node:http';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type Provider from 'oidc-provider';
import { lazily } from '../../lazy.js';
import { proxyTrust } from '../../net/trusted-proxies.js';

export const OIDC_PREFIX = '/oidc';

/**
 * Hands every `/oidc` request that no Fastify route of ours claims (discovery, auth, token,
 * jwks, session/end, ...) to oidc-provider's own request handler, the way its docs mount it
 * under a path: the prefix is stripped from `url` and the full path kept in `originalUrl`,
 * from which the provider derives the mount path of the URLs it advertises. The provider is
 * made by the first such request (identity.ts); until then a failure to make it is an error of
 * that request, answered by Fastify, and the next request tries again.
 */
export function mountProvider(provider: () => Promise<Provider>, trustedProxies: string[]) {
  const callbackOf = lazily(async () => (await provider()).callback());
  const trusted = proxyTrust(trustedProxies);
  const forward = async (request: FastifyRequest, reply: FastifyReply) => {
    const callback = await callbackOf();
    reply.hijack();
    // The provider's JSON and pages are never to be sniffed into something else.
    reply.raw.setHeader('x-content-type-options', 'nosniff');
    const req = request.raw as IncomingMessage & { originalUrl?: string };
    // The provider believes X-Forwarded-* whenever a proxy is configured: from any other peer
    // they are the client's own claims, so they never reach it.
    if (!trusted(req.socket.remoteAddress ?? '')) {
      for (const h of Object.keys(req.headers))
        if (h.startsWith('x-forwarded-')) delete req.headers[h];
    }
    const url = req.url ?? OIDC_PREFIX;
    const rest = url.slice(OIDC_PREFIX.length);
    req.originalUrl = url;
    req.url = rest.startsWith('/') ? rest : `/${rest}`;
    void callback(req, reply.raw);
  };
  return async (app: FastifyInstance) => {
    // The provider reads request bodies itself: leave the stream untouched for any type.
    app.removeAllContentTypeParsers();
    app.addContentTypeParser('*', (_request, _payload, done) => done(null, undefined));
    app.all(OIDC_PREFIX, forward);
    app.all(`${OIDC_PREFIX}/*`, forward);
  };
}
