import { createHmac } from 'node:crypto';

/** Short enough that a token that leaks (a log, a proxy) is soon worthless. */
export const TOKEN_LIFETIME_S = 300;

/**
 * An HS256 JWT that slurmctld's auth/jwt accepts for `user` (`sun`: the Slurm user name), minted
 * with the key of `AuthAltParameters=jwt_key=`. Whoever holds that key can act as any user of the
 * cluster, root included: the key stays in the server, tokens name an unprivileged user, and
 * neither is ever logged.
 */
export function mintToken(
  key: Buffer,
  user: string,
  now = Math.floor(Date.now() / 1000),
  lifetimeS = TOKEN_LIFETIME_S,
): string {
  const part = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url');
  const unsigned = `${part({ alg: 'HS256', typ: 'JWT' })}.${part({ iat: now, exp: now + lifetimeS, sun: user })}`;
  return `${unsigned}.${createHmac('sha256', key).update(unsigned).digest('base64url')}`;
}
