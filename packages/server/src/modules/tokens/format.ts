import { createHash, createHmac, randomBytes } from 'node:crypto';
import { APOLO_USER_CLAIM, IDENTITY_CLAIM } from '../../auth/tokens.js';

/** The `kid` that marks a project token among the bearer tokens a request may carry. */
export const PROJECT_TOKEN_KID = 'orrery-project-token';

const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

/**
 * A project token is a JWT, because the Apolo CLI decodes a token (unverified) for the user
 * name; its validity is never read from the token but from the database, by its
 * SHA-256, at every request, so revoking it acts at once on every replica. The HMAC key is random
 * and thrown away: the signature only adds unpredictability to the random `jti`.
 */
export function mintProjectToken(opts: {
  username: string;
  tokenId: string;
  issuer: string;
  expiresAt: Date;
}): string {
  const header = b64({ alg: 'HS256', typ: 'JWT', kid: PROJECT_TOKEN_KID });
  const payload = b64({
    [IDENTITY_CLAIM]: opts.username,
    [APOLO_USER_CLAIM]: opts.username,
    sub: opts.tokenId,
    iss: opts.issuer,
    jti: randomBytes(32).toString('base64url'),
    iat: Math.floor(Date.now() / 1000),
    exp: Math.floor(opts.expiresAt.getTime() / 1000),
  });
  const signature = createHmac('sha256', randomBytes(32))
    .update(`${header}.${payload}`)
    .digest('base64url');
  return `${header}.${payload}.${signature}`;
}

export const hashOfToken = (token: string) => createHash('sha256').update(token).digest('hex');

/** Whether a bearer token is a project token (by its header), without trusting anything in it. */
export function isProjectToken(token: string): boolean {
  const dot = token.indexOf('.');
  if (dot <= 0 || dot > 200) return false;
  try {
    const header = JSON.parse(Buffer.from(token.slice(0, dot), 'base64url').toString()) as unknown;
    return (header as { kid?: unknown } | null)?.kid === PROJECT_TOKEN_KID;
  } catch {
    return false;
  }
}
