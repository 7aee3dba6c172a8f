import type { IncomingMessage } from 'node:http';
import type { FastifyRequest } from 'fastify';
import type { Config } from '../../config.js';
import { requestedHost } from '../../http/origin.js';
import { proxyTrust } from '../../net/trusted-proxies.js';

/**
 * Jobs are served at hosts of their own, `<key>.<ingress domain>`, so that a job's page never
 * shares an origin with the console (whose tokens it could read) nor with another job. The key
 * is the job id, or the name key of a named job (wire.ts `ingressNameKey`). The server tells a
 * job's request from the console's by the Host header alone: before routing, every request for
 * a job host is rewritten to the internal path below, whatever path it asked for, so no console
 * or API route ever answers on a job's origin.
 */
export const HOST_ROUTE = '/.orrery-ingress-host';

/** Set on the raw request by the rewrite: the job key of its host. Never read from the path. */
const KEY = Symbol('orrery.ingressKey');
type Marked = IncomingMessage & { [KEY]?: string; originalUrl?: string };

const LABEL = /^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$/;

const hostnameOf = (host: string) => host.replace(/:\d+$/, '').replace(/\.$/, '');

/**
 * The job key of a host under the ingress domain: `''` for a host under the domain that names
 * no job (the domain itself, several labels), null for any other host (the console's).
 */
export function keyOfHost(host: string, domain: string): string | null {
  const name = hostnameOf(host);
  if (name === domain) return '';
  if (!name.endsWith(`.${domain}`)) return null;
  const label = name.slice(0, -domain.length - 1);
  return LABEL.test(label) ? label : '';
}

/** Fastify's `rewriteUrl`: requests for a job host go to the host route, marked with its key. */
export function ingressRewrite(config: Pick<Config, 'ingressDomain' | 'trustedProxies'>) {
  const trusted = proxyTrust(config.trustedProxies);
  return (req: IncomingMessage): string => {
    const forwarded = trusted(req.socket.remoteAddress ?? '');
    const key = keyOfHost(requestedHost(req.headers, forwarded), config.ingressDomain);
    const url = req.url ?? '/';
    if (key === null) return url;
    (req as Marked)[KEY] = key;
    return HOST_ROUTE;
  };
}

/** The job key of a request that came for a job host, or null (the console's origin). */
export const hostKeyOf = (request: FastifyRequest): string | null =>
  (request.raw as Marked)[KEY] ?? null;

/** The path and query the client asked for on the job's host. */
export const requestedPath = (request: FastifyRequest) => {
  const raw = request.raw as Marked;
  const url = raw.originalUrl ?? '/';
  return url.startsWith('/') ? url : `/${url}`;
};

/** The origin of a job's host: the public URL's scheme and port, the host `<key>.<domain>`. */
export function jobOrigin(config: Pick<Config, 'publicUrl' | 'ingressDomain'>, key: string) {
  const u = new URL(config.publicUrl);
  return `${u.protocol}//${key}.${config.ingressDomain}${u.port ? `:${u.port}` : ''}`;
}

/** Where a job is served: its host's root. */
export const jobUrl = (config: Pick<Config, 'publicUrl' | 'ingressDomain'>, key: string) =>
  `${jobOrigin(config, key)}/`;
