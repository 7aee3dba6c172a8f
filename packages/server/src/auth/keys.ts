import { randomUUID } from 'node:crypto';
import { exportJWK, generateKeyPair, type JWK } from 'jose';
import type { Db } from '../db/client.js';
import { signingKeys } from '../db/schema.js';

const PRIVATE_PARTS = ['d', 'p', 'q', 'dp', 'dq', 'qi'] as const;

/**
 * The embedded provider's signing keys, kept in the database so that every replica and the
 * `orrery token create` CLI sign and verify with the same keys. Created on first start.
 */
export async function loadSigningKeys(db: Db): Promise<JWK[]> {
  let rows = await db.select().from(signingKeys);
  if (rows.length === 0) {
    const { privateKey } = await generateKeyPair('RS256', { extractable: true });
    const jwk = { ...(await exportJWK(privateKey)), kid: randomUUID(), alg: 'RS256', use: 'sig' };
    await db.insert(signingKeys).values({ kid: jwk.kid, jwk }).onConflictDoNothing();
    rows = await db.select().from(signingKeys);
  }
  return rows.map((r) => r.jwk as JWK);
}

export const publicJwks = (keys: JWK[]): { keys: JWK[] } => ({
  keys: keys.map((k) => {
    const pub: JWK = { ...k };
    for (const p of PRIVATE_PARTS) delete pub[p];
    return pub;
  }),
});
