import type { Account, FindAccount } from 'oidc-provider';
import type { Db } from '../../db/client.js';
import { userById, type UserRow } from '../../modules/users/store.js';
import { IDENTITY_CLAIM } from '../tokens.js';
import { isServiceAccountUser } from '../../modules/tokens/store.js';

/** The standard claims of a user, grouped by the scope that releases them (see `CLAIMS`). */
export const CLAIMS = {
  openid: ['sub', IDENTITY_CLAIM],
  email: ['email', 'email_verified'],
  profile: ['name', 'preferred_username', 'picture'],
};

export function claimsOf(user: UserRow) {
  return {
    sub: user.id,
    [IDENTITY_CLAIM]: user.username,
    email: user.email,
    email_verified: user.emailVerified,
    name: user.name,
    preferred_username: user.username,
    ...(user.picture ? { picture: user.picture } : {}),
  };
}

/**
 * Accounts are rows of `users`, read afresh on every use, so a verified e-mail or a new name
 * shows in the next token or refresh. `sub` is the user id, which never changes.
 */
export const accountFinder =
  (db: Db): FindAccount =>
  async (_ctx, id): Promise<Account | undefined> => {
    const user = await userById(db, id).catch(() => null); // a malformed uuid is no account
    // A service account has no session: one opened by a password set before that was refused
    // ends at its next use (a refresh, a new authorization).
    if (!user || (await isServiceAccountUser(db, user.id))) return undefined;
    return { accountId: user.id, claims: async () => claimsOf(user) };
  };

/**
 * Claims our JWT access tokens carry beyond the standard ones: `identity` (the user name, which
 * the API and the Apolo CLI read) and the e-mail.
 */
export const tokenClaims = (db: Db) => async (_ctx: unknown, token: object) => {
  // Client-credentials tokens have no account; ours never are, but the hook sees both kinds.
  const accountId = (token as { accountId?: string }).accountId;
  if (!accountId) return undefined;
  const user = await userById(db, accountId).catch(() => null);
  if (!user || (await isServiceAccountUser(db, user.id))) return undefined;
  return {
    [IDENTITY_CLAIM]: user.username,
    email: user.email,
    email_verified: user.emailVerified,
  };
};
