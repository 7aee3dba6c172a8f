import type { FastifyRequest } from 'fastify';
import { unauthorized } from '../http/errors.js';

/** The signed-in caller, resolved once per request from the Bearer token. */
export interface Principal {
  id: string;
  username: string;
  name: string;
  email: string;
  emailVerified: boolean;
  systemRole: string | null;
}

/** Verifies an access token (JWT) and returns the username it names, or null. */
export interface TokenVerifier {
  verify(token: string): Promise<{ username: string } | null>;
}

declare module 'fastify' {
  interface FastifyRequest {
    principal: Principal | null;
  }
}

export function requireUser(request: FastifyRequest): Principal {
  if (!request.principal) throw unauthorized();
  return request.principal;
}

export function bearerOf(request: FastifyRequest): string | null {
  const h = request.headers.authorization;
  if (h) {
    const m = /^Bearer\s+(.+)$/i.exec(h);
    return m ? m[1].trim() : null;
  }
  return wsBearerOf(request.headers['sec-websocket-protocol']);
}

export const WS_BEARER_PREFIX = 'bearer.';

/**
 * A browser cannot set headers on a WebSocket, so the console offers its token as one of the
 * sub-protocols, `bearer.<token>` (a JWT is a valid protocol token); the server never selects it.
 */
export function wsBearerOf(protocols: string | string[] | undefined): string | null {
  if (!protocols) return null;
  for (const p of [protocols].flat().join(',').split(',')) {
    const t = p.trim();
    if (t.startsWith(WS_BEARER_PREFIX) && t.length > WS_BEARER_PREFIX.length) {
      return t.slice(WS_BEARER_PREFIX.length);
    }
  }
  return null;
}
