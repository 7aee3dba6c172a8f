import { Readable } from 'node:stream';
import type { ReadableStream as NodeReadableStream } from 'node:stream/web';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Registry } from './upstream.js';

/** Headers that belong to one connection, or to Orrery, and are not forwarded either way. */
const HOP = new Set([
  'connection',
  'keep-alive',
  'transfer-encoding',
  'te',
  'trailer',
  'upgrade',
  'proxy-authorization',
  'proxy-authenticate',
  'host',
  'authorization',
  'cookie',
  'www-authenticate',
  'content-encoding',
]);

/**
 * The origin the client used to reach Orrery: X-Forwarded-Proto and -Host count only from a
 * trusted proxy (ORRERY_TRUSTED_PROXIES, app.ts), as for every other route.
 */
export const originOf = (request: FastifyRequest) => `${request.protocol}://${request.host}`;

function forwardHeaders(request: FastifyRequest) {
  const out = new Headers();
  for (const [k, v] of Object.entries(request.headers)) {
    if (v === undefined || HOP.has(k) || k.startsWith('x-forwarded-')) continue;
    for (const one of [v].flat()) out.append(k, one);
  }
  // Bodies pass through untouched, so that lengths and digests stay true.
  out.set('accept-encoding', 'identity');
  return out;
}

/** Upload sessions answer with the registry's URL: the client must come back through Orrery. */
export function rewriteLocation(location: string, registry: string, origin: string) {
  if (location.startsWith(registry)) return origin + location.slice(registry.length);
  return location;
}

/**
 * Forwards one request to the registry and its answer back, both as streams: blobs are never
 * buffered. `path` is the upstream path with its query.
 */
export async function proxy(
  request: FastifyRequest,
  reply: FastifyReply,
  registry: Registry,
  path: string,
) {
  const method = request.method;
  const hasBody = !['GET', 'HEAD', 'DELETE'].includes(method);
  const res = await registry.fetch(path, {
    method,
    headers: forwardHeaders(request),
    redirect: 'manual',
    ...(hasBody ? { body: Readable.toWeb(request.raw) as ReadableStream, duplex: 'half' } : {}),
  } as RequestInit);
  reply.status(res.status);
  res.headers.forEach((value, key) => {
    if (HOP.has(key)) return;
    reply.header(
      key,
      key === 'location' ? rewriteLocation(value, registry.origin, originOf(request)) : value,
    );
  });
  if (!res.body || method === 'HEAD') {
    await res.body?.cancel();
    return reply.send();
  }
  return reply.send(Readable.fromWeb(res.body as NodeReadableStream));
}

/** A JSON answer of the registry, for the calls Orrery reads itself (catalog, tags, manifests). */
export async function upstreamJson<T>(
  registry: Registry,
  path: string,
  accept?: string,
): Promise<{ status: number; headers: Headers; body: T | null }> {
  const res = await registry.fetch(path, { headers: accept ? { accept } : {} });
  const text = await res.text();
  let body: T | null = null;
  try {
    body = text ? (JSON.parse(text) as T) : null;
  } catch {
    body = null;
  }
  return { status: res.status, headers: res.headers, body };
}
