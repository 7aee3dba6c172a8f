import { exportJWK, generateKeyPair, type JWK } from 'jose';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { signAccessToken } from './tokens.js';
import { createTokenVerifier } from './verify.js';

const ISSUER = 'http://127.0.0.1:8080/oidc';
const AUDIENCE = 'http://127.0.0.1:8080';
const SUBJECT = { id: 'u-1', username: 'ada', email: 'ada@example.test' };

/**
 * The verifier keeps the claims of tokens it has verified (a signature check costs more than the
 * rest of a cached signed-in request); these tests pin what the cache must never change.
 */
describe('token verifier', () => {
  let key: JWK;
  let other: JWK;
  beforeAll(async () => {
    const privateJwk = async (kid: string) => ({
      ...(await exportJWK((await generateKeyPair('RS256', { extractable: true })).privateKey)),
      kid,
      alg: 'RS256',
    });
    [key, other] = await Promise.all([privateJwk('k1'), privateJwk('k2')]);
  });
  const publicOf = ({ kid, alg, n, e, kty }: JWK) => ({ kid, alg, n, e, kty });
  const verifier = () =>
    createTokenVerifier({ issuer: ISSUER, audience: AUDIENCE, jwks: { keys: [publicOf(key)] } });
  const sign = (k: JWK, ttlSeconds: number, audience = AUDIENCE) =>
    signAccessToken({ key: k, issuer: ISSUER, audience, subject: SUBJECT, ttlSeconds });

  it('accepts a valid token again and again with the same claims', async () => {
    const v = verifier();
    const token = await sign(key, 600);
    const first = await v.verifyClaims(token);
    expect(first).toMatchObject({ username: 'ada', email: 'ada@example.test' });
    expect(await v.verifyClaims(token)).toEqual(first);
  });

  afterEach(() => vi.useRealTimers());

  it('refuses a token once it expires, although it was accepted before', async () => {
    // The clock moves past the expiry, the signer's and the verifier's (its cache's too).
    // On a whole second: the token's expiry is in whole seconds, 2 s after it is signed.
    vi.useFakeTimers({ toFake: ['Date'], now: new Date('2026-11-15T12:00:00.000Z') });
    const v = verifier();
    const token = await sign(key, 2);
    expect(await v.verifyClaims(token)).not.toBeNull();
    vi.setSystemTime(Date.now() + 1900);
    expect(await v.verifyClaims(token)).not.toBeNull();
    vi.setSystemTime(Date.now() + 200);
    expect(await v.verifyClaims(token)).toBeNull();
  });

  it('refuses every time a token signed by another key, for another audience, or altered', async () => {
    const v = verifier();
    const good = await sign(key, 600);
    expect(await v.verifyClaims(good)).not.toBeNull();
    const [header, payload] = good.split('.');
    const forged = await sign(other, 600);
    const altered = `${header}.${payload}.${forged.split('.')[2]}`;
    for (const bad of [forged, await sign(key, 600, 'http://elsewhere'), altered]) {
      expect(await v.verifyClaims(bad)).toBeNull();
      expect(await v.verifyClaims(bad)).toBeNull();
    }
  });
});
