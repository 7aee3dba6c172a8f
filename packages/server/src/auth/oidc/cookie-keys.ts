import { randomBytes } from 'node:crypto';
import type { Db } from '../../db/client.js';
import { insertOwnPayload, ownPayload } from './store.js';

/**
 * Keys that sign the provider's session and interaction cookies. They live in the database (one
 * row of `oidc_payloads` under a type no provider model uses, so no migration is needed) so that
 * sessions survive restarts and a cookie set by one replica is accepted by the others.
 */
const TYPE = 'CookieKeys';
const ID = 'current';

export async function loadCookieKeys(db: Db): Promise<string[]> {
  const read = async () => {
    const payload = await ownPayload(db, TYPE, ID);
    return (payload as { keys?: string[] } | undefined)?.keys;
  };
  const existing = await read();
  if (existing?.length) return existing;
  // Two replicas starting together both try; the first insert wins and both read it back.
  const keys = [randomBytes(32).toString('base64url')];
  await insertOwnPayload(db, TYPE, ID, { keys });
  return (await read()) ?? keys;
}
