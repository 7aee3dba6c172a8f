import type { JWK } from 'jose';
import type { Config } from '../config.js';
import type { Db } from '../db/client.js';
import { userByEmail } from '../modules/users/store.js';
import { signAccessToken } from './tokens.js';

export class IssueError extends Error {}

/** A bearer token for the user with this e-mail, signed with the embedded provider's key. */
export async function issueTokenForEmail(
  deps: { db: Db; config: Config; keys: JWK[] },
  email: string,
  ttlSeconds: number,
): Promise<string> {
  if (deps.config.oidc.external) {
    throw new IssueError('Tokens are issued by the external identity provider (OIDC_ISSUER)');
  }
  const user = await userByEmail(deps.db, email);
  if (!user) throw new IssueError(`No user with e-mail ${email}`);
  return signAccessToken({
    key: deps.keys[0],
    issuer: deps.config.oidc.issuer,
    audience: deps.config.oidc.audience,
    subject: { id: user.id, username: user.username, email: user.email },
    ttlSeconds,
  });
}
