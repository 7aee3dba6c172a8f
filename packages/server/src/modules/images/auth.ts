import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Action } from '@orrery/contract';
import type { AppContext } from '../../context.js';
import { allows } from '../../auth/permissions.js';
import { principalOf, tokenAdmits } from '../../auth/principal-hook.js';
import { userByUsername } from '../users/store.js';
import { imageUriOf, type RepoPlace } from './names.js';

/** An error of the registry API (distribution spec): `{"errors":[{code, message, detail}]}`. */
export class RegistryError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

export const REALM = 'Basic realm="Orrery"';

export function sendRegistryError(reply: FastifyReply, e: RegistryError) {
  if (e.status === 401) reply.header('www-authenticate', REALM);
  return reply
    .status(e.status)
    .header('content-type', 'application/json; charset=utf-8')
    .send({ errors: [{ code: e.code, message: e.message, detail: null }] });
}

export const unauthorizedRegistry = () =>
  new RegistryError(401, 'UNAUTHORIZED', 'authentication required');

/** `Basic base64(username:token)`: the username must be the token's user, or literally `token`. */
function basicOf(request: FastifyRequest): { username: string; token: string } | null {
  const m = /^Basic\s+(\S+)$/i.exec(request.headers.authorization ?? '');
  if (!m) return null;
  const decoded = Buffer.from(m[1], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return null;
  return { username: decoded.slice(0, colon), token: decoded.slice(colon + 1) };
}

/**
 * Resolves the caller of a `/v2/` request. Bearer tokens were already resolved by the global
 * principal hook; Basic credentials are verified here with the same token verifier.
 */
export async function resolveBasicPrincipal(ctx: AppContext, request: FastifyRequest) {
  if (request.principal) return;
  const basic = basicOf(request);
  if (!basic || !basic.token) return;
  const claims = await ctx.verifier.verify(basic.token);
  if (!claims) return;
  if (basic.username !== claims.username && basic.username !== 'token') return;
  const user = await userByUsername(ctx.db, claims.username);
  if (user && (await tokenAdmits(ctx.db, request, basic.token, claims, user))) {
    request.principal = principalOf(user);
  }
}

/**
 * The permission check of every proxied request. Anonymous → 401 with the Basic challenge; no
 * read on the repository (another organization's, or no project) → 404 NAME_UNKNOWN, so that
 * existence does not leak, as Orrery's API does; read but not the needed write → 403 DENIED.
 */
export async function authorizeRepo(request: FastifyRequest, place: RepoPlace, action: Action) {
  if (!request.principal) throw unauthorizedRegistry();
  const grants = await request.grants();
  const uri = imageUriOf(place);
  if (!allows(grants, uri, 'read')) {
    throw new RegistryError(404, 'NAME_UNKNOWN', 'repository name not known to registry');
  }
  if (!allows(grants, uri, action)) {
    throw new RegistryError(403, 'DENIED', 'requested access to the resource is denied');
  }
}
