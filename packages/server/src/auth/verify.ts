import {
  createLocalJWKSet,
  createRemoteJWKSet,
  jwtVerify,
  type JWK,
  type JWTPayload,
  type JWTVerifyGetKey,
} from 'jose';
import { LRUCache } from 'lru-cache';
import type { TokenVerifier } from './principal.js';
import { APOLO_USER_CLAIM, IDENTITY_CLAIM, PROJECT_TOKEN_CLAIM } from './tokens.js';

export interface VerifiedToken {
  username: string;
  email?: string;
  name?: string;
  emailVerified?: boolean;
  /** PROJECT_TOKEN_CLAIM: a job's token for a service account, valid while that token is. */
  projectToken?: string;
}

/** The user name a token carries: our `identity` claim, the Apolo claim, or the OIDC standard ones. */
export function usernameOf(claims: JWTPayload): string | null {
  for (const c of [IDENTITY_CLAIM, APOLO_USER_CLAIM, 'preferred_username', 'nickname']) {
    const v = claims[c];
    if (typeof v === 'string' && v.length > 0) return v;
  }
  return null;
}

/** Verified tokens kept (about 1 KB each) and for how long at most. */
const VERIFIED_MAX = 10_000;
const VERIFIED_TTL_MS = 60_000;

/**
 * The API is a resource server: it checks a JWT access token's signature against the issuer's
 * JWKS, its issuer and its audience. With the embedded provider the key set is local; with an
 * external issuer (Keycloak, Auth0, ...) it is fetched from the issuer's discovery document.
 */
export function createTokenVerifier(opts: {
  issuer: string;
  audience: string;
  jwks: { keys: JWK[] } | 'discover';
}): TokenVerifier & { verifyClaims(token: string): Promise<VerifiedToken | null> } {
  let getKey: JWTVerifyGetKey | undefined =
    opts.jwks === 'discover' ? undefined : createLocalJWKSet(opts.jwks);
  const keyGetter = async (): Promise<JWTVerifyGetKey> => {
    if (getKey) return getKey;
    const res = await fetch(`${opts.issuer}/.well-known/openid-configuration`);
    if (!res.ok) throw new Error(`OIDC discovery failed at ${opts.issuer}: HTTP ${res.status}`);
    const doc = (await res.json()) as { jwks_uri: string };
    getKey = createRemoteJWKSet(new URL(doc.jwks_uri));
    return getKey;
  };
  // A signature check costs more than the rest of a cached signed-in request. A token is
  // immutable and self-contained (no revocation list is consulted), so its verdict holds until it
  // expires; VERIFIED_TTL_MS bounds how long a key removed from an external issuer's set still
  // counts. Refusals are not kept: a token that failed is checked again, as an attacker's would be.
  // The TTL is counted on the clock a token's expiry is read on (Date, as jose reads it), not the
  // monotonic one, so that a cached verdict never outlives its token.
  const verified = new LRUCache<string, VerifiedToken>({
    max: VERIFIED_MAX,
    perf: { now: () => Date.now() },
    ttlResolution: 0,
  });
  const verifyClaims = async (token: string): Promise<VerifiedToken | null> => {
    const known = verified.get(token);
    if (known) return known;
    try {
      const { payload } = await jwtVerify(token, await keyGetter(), {
        issuer: opts.issuer,
        audience: opts.audience,
      });
      const username = usernameOf(payload);
      if (!username) return null;
      const claims: VerifiedToken = {
        username,
        email: typeof payload.email === 'string' ? payload.email : undefined,
        name: typeof payload.name === 'string' ? payload.name : undefined,
        emailVerified:
          typeof payload.email_verified === 'boolean' ? payload.email_verified : undefined,
        projectToken:
          typeof payload[PROJECT_TOKEN_CLAIM] === 'string'
            ? payload[PROJECT_TOKEN_CLAIM]
            : undefined,
      };
      const ttl = Math.min(VERIFIED_TTL_MS, (payload.exp ?? 0) * 1000 - Date.now());
      if (ttl > 0) verified.set(token, claims, { ttl });
      return claims;
    } catch {
      return null;
    }
  };
  return { verify: verifyClaims, verifyClaims };
}
