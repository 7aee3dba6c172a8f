import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Db } from '../db/client.js';
import { insertUser, type UserRow } from '../modules/users/store.js';
import { accessOf, type AccessSnapshot } from './access-cache.js';
import { createEpochCache, type EpochCache } from '../db/epoch-cache.js';
import { uncachedEpochs } from '../db/epochs.js';
import { bearerOf, type Principal } from './principal.js';
import type { createTokenVerifier, VerifiedToken } from './verify.js';
import { liveTokenOf } from '../modules/tokens/store.js';
import { isServiceAccountName } from './permissions.js';
import { isProjectToken } from '../modules/tokens/format.js';

export const principalOf = (u: UserRow): Principal => ({
  id: u.id,
  username: u.username,
  name: u.name,
  email: u.email,
  emailVerified: u.emailVerified,
  systemRole: u.systemRole,
});

/**
 * Whether a verified token may act as `user`. A service account is its project token and nothing
 * else: any other token naming its user (say, from a password it was once given) identifies
 * nobody, except the one the server signs for its jobs, which holds while the project token is
 * live. Every way in (the hook, the registry's Basic login, the job ingress) asks this.
 */
export async function tokenAdmits(
  db: Db,
  request: FastifyRequest,
  token: string,
  claims: VerifiedToken,
  user: UserRow,
): Promise<boolean> {
  if (isProjectToken(token) || !isServiceAccountName(user.username)) return true;
  const m = await (await request.accessSnapshot()).memberships(principalOf(user));
  if (!m.serviceAccount) return true;
  return !!claims.projectToken && (await liveTokenOf(db, user.id)) === claims.projectToken;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** Access as of an epoch read after this request arrived, taken once per request. */
    accessSnapshot(): Promise<AccessSnapshot>;
  }
}

/**
 * Resolves `request.principal` from the Bearer token. A user first seen in a token of an external
 * issuer is created from its claims (the issuer vouches for them); with the embedded provider
 * every user already exists, so an unknown name is an invalid token.
 */
export function installPrincipal(
  app: FastifyInstance,
  db: Db,
  verifier: ReturnType<typeof createTokenVerifier>,
  opts: {
    provisionUnknown: boolean;
    /** Shared between requests; without it every request reads the database itself. */
    cache?: EpochCache;
  },
) {
  const cache = opts.cache ?? createEpochCache(uncachedEpochs());
  app.decorateRequest('principal', null);
  app.decorateRequest('accessSnapshot', function (this: FastifyRequest) {
    const self = this as FastifyRequest & { _access?: Promise<AccessSnapshot> };
    self._access ??= cache.snapshot().then((snap) => accessOf(db, snap));
    return self._access;
  });
  app.addHook('onRequest', async (request) => {
    const token = bearerOf(request);
    if (!token) return;
    const claims = await verifier.verifyClaims(token);
    if (!claims) return;
    let user = await (await request.accessSnapshot()).user(claims.username);
    if (!user && opts.provisionUnknown && claims.email) {
      user = await insertUser(db, {
        username: claims.username,
        name: claims.name ?? claims.username,
        email: claims.email,
        emailVerified: claims.emailVerified ?? true,
      });
    }
    if (user && (await tokenAdmits(db, request, token, claims, user))) {
      request.principal = principalOf(user);
    }
  });
}
