import type { IncomingMessage } from 'node:http';
import type { FastifyRequest } from 'fastify';

/**
 * The host the client asked for: Host, or the X-Forwarded-Host of a trusted proxy (the entry the
 * nearest proxy added, as Fastify reads it). From any other peer X-Forwarded-Host is ignored.
 */
export function requestedHost(headers: IncomingMessage['headers'], forwarded: boolean): string {
  const raw = forwarded ? [headers['x-forwarded-host']].flat().join(',') : '';
  const host = raw ? raw.split(',').at(-1) : headers.host;
  return (host ?? '').trim().toLowerCase();
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
      u.host.toLowerCase() === request.host.toLowerCase()
    );
  } catch {
    return false; // `null` (a sandboxed page, a file) and garbage are no origin of ours
  }
}
