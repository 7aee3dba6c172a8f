import type { IncomingMessage } from 'node:http';
import type { FastifyRequest } from 'fastify';

/** The host the client asked for: a proxy's X-Forwarded-Host first (as Fastify reads it), else Host. */
export function requestedHost(headers: IncomingMessage['headers']): string {
  const forwarded = headers['x-forwarded-host'];
  const raw = (Array.isArray(forwarded) ? forwarded[0] : forwarded)?.split(',')[0] ?? headers.host;
  return (raw ?? '').trim().toLowerCase();
}

/**
 * Whether a request's `Origin` is the host it was sent to (the scheme aside: one port does not
 * serve two). Browsers send Origin on every WebSocket upgrade and on unsafe requests; a page of
 * another origin (another port of the same host, a job's page) fails. `missing` is what an
 * absent Origin counts as: API clients send none.
 */
export function sameOrigin(request: FastifyRequest, missing: boolean): boolean {
  const origin = request.headers.origin;
  if (origin === undefined) return missing;
  try {
    const u = new URL(origin);
    return (
      (u.protocol === 'http:' || u.protocol === 'https:') &&
      u.host.toLowerCase() === requestedHost(request.headers)
    );
  } catch {
    return false; // `null` (a sandboxed page, a file) and garbage are no origin of ours
  }
}
