import { randomUUID } from 'node:crypto';
import { importJWK, SignJWT, type JWK } from 'jose';

export const IDENTITY_CLAIM = 'identity';
/** Claim name the Apolo SDK also accepts for the user name. */
export const APOLO_USER_CLAIM = 'https://platform.neuromation.io/user';

/**
 * On a token the server signs for a job of a project token's service account (registry pulls,
 * `pass_config`): the project token's id. The token counts only while that one is live.
 */
export const PROJECT_TOKEN_CLAIM = 'orrery_project_token';

export interface TokenSubject {
  id: string;
  username: string;
  email: string;
}

/**
 * Signs an access token exactly like the embedded provider's JWT access tokens, for scripts,
 * tests and the Apolo CLI (`apolo config login-with-token`).
 */
export async function signAccessToken(opts: {
  key: JWK;
  issuer: string;
  audience: string;
  subject: TokenSubject;
  ttlSeconds: number;
  clientId?: string;
  /** The project token whose service account this is (PROJECT_TOKEN_CLAIM). */
  projectToken?: string;
}): Promise<string> {
  const key = await importJWK(opts.key, 'RS256');
  return new SignJWT({
    ...(opts.projectToken ? { [PROJECT_TOKEN_CLAIM]: opts.projectToken } : {}),
    [IDENTITY_CLAIM]: opts.subject.username,
    email: opts.subject.email,
    client_id: opts.clientId ?? 'orrery-cli',
    scope: 'openid profile email',
  })
    .setProtectedHeader({ alg: 'RS256', kid: opts.key.kid, typ: 'at+jwt' })
    .setIssuer(opts.issuer)
    .setAudience(opts.audience)
    .setSubject(opts.subject.id)
    .setJti(randomUUID())
    .setIssuedAt()
    .setExpirationTime(Math.floor(Date.now() / 1000) + opts.ttlSeconds)
    .sign(key);
}

/** `30m`, `1h`, `7d`, `3600` (seconds) → seconds. */
export function parseTtl(ttl: string): number {
  const m = /^(\d+)\s*([smhd]?)$/.exec(ttl.trim());
  if (!m) throw new Error(`Invalid TTL "${ttl}": use a number with s, m, h or d, e.g. 1h`);
  const n = Number(m[1]);
  const mult = { '': 1, s: 1, m: 60, h: 3600, d: 86400 }[m[2] as '' | 's' | 'm' | 'h' | 'd'];
  if (n <= 0) throw new Error(`Invalid TTL "${ttl}": must be positive`);
  return n * mult;
}
