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
  if (!h) return null;
  const m = /^Bearer\s+(.+)$/i.exec(h);
  return m ? m[1].trim() : null;
}
