import type { Db } from '../../db/client.js';
import type { createTokenVerifier } from '../../auth/verify.js';
import { isProjectToken } from './format.js';
import { liveTokenUser } from './store.js';

type Verifier = ReturnType<typeof createTokenVerifier>;

/**
 * The token verifier every route, the registry login and the job ingress share, taught project
 * tokens: those are looked up in the database at each use (never cached), the rest go to the
 * identity provider's verifier. Whatever the issuer (embedded or external), project tokens work.
 */
export function withProjectTokens(db: Db, verifier: Verifier): Verifier {
  const verifyClaims: Verifier['verifyClaims'] = async (token) => {
    if (!isProjectToken(token)) return verifier.verifyClaims(token);
    const username = await liveTokenUser(db, token);
    return username ? { username } : null;
  };
  return { verify: verifyClaims, verifyClaims };
}
