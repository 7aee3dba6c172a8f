import { randomUUID } from 'node:crypto';
import { exportJWK, generateKeyPair, type JWK } from 'jose';
import type { Db } from '../db/client.js';
import { insertSigningKey, signingKeyRows } from './store.js';

const PRIVATE_PARTS = ['d', 'p', 'q', 'dp', 'dq', 'qi'] as const;

/**
 * The embedded provider's signing keys, kept in the database so that every replica and the
 * `orrery token create` CLI sign and verify with the same keys. Created on first start.
 */
export async function loadSigningKeys(db: Db): Promise<JWK[]> {
  let keys = await signingKeyRows(db);
  if (keys.length === 0) {
    const { privateKey } = await generateKeyPair('RS256', { extractable: true });
    const jwk = { ...(await exportJWK(privateKey)), kid: randomUUID(), alg: 'RS256', use: 'sig' };
    await insertSigningKey(db, jwk.kid, jwk);
    keys = await signingKeyRows(db);
  }
  return keys;
}

export const publicJwks = (keys: JWK[]): { keys: JWK[] } => ({
  keys: keys.map((k) => {
    const pub: JWK = { ...k };
    for (const p of PRIVATE_PARTS) delete pub[p];
    return pub;
  }),
});
