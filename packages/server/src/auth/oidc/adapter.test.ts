import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../test/harness.js';
import { oidcPayloads } from '../../db/schema.js';
import { DrizzleAdapter, pruneExpired } from './store.js';
import { loadCookieKeys } from './cookie-keys.js';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(() => s?.stop());

describe('DrizzleAdapter', () => {
  it('stores, finds, updates and destroys payloads per model', async () => {
    const sessions = new DrizzleAdapter(s.ctx.db, 'Session');
    const codes = new DrizzleAdapter(s.ctx.db, 'AuthorizationCode');
    await sessions.upsert('a1', { uid: 'u-1', accountId: 'acc' }, 60);
    expect(await sessions.find('a1')).toMatchObject({ uid: 'u-1', accountId: 'acc' });
    expect(await codes.find('a1')).toBeUndefined();
    expect(await sessions.findByUid('u-1')).toMatchObject({ accountId: 'acc' });
    await sessions.upsert('a1', { uid: 'u-1', accountId: 'other' }, 60);
    expect(await sessions.find('a1')).toMatchObject({ accountId: 'other' });
    await sessions.destroy('a1');
    expect(await sessions.find('a1')).toBeUndefined();
  });

  it('marks consumed payloads', async () => {
    const codes = new DrizzleAdapter(s.ctx.db, 'AuthorizationCode');
    await codes.upsert('c1', { grantId: 'g1' }, 60);
    expect((await codes.find('c1'))?.consumed).toBeUndefined();
    await codes.consume('c1');
    expect((await codes.find('c1'))?.consumed).toEqual(expect.any(Number));
  });

  it('finds by user code', async () => {
    const device = new DrizzleAdapter(s.ctx.db, 'DeviceCode');
    await device.upsert('d1', { userCode: 'ABCD-EFGH' }, 60);
    expect(await device.findByUserCode('ABCD-EFGH')).toMatchObject({ userCode: 'ABCD-EFGH' });
  });

  it('revokes every token of a grant', async () => {
    const at = new DrizzleAdapter(s.ctx.db, 'AccessToken');
    const rt = new DrizzleAdapter(s.ctx.db, 'RefreshToken');
    await at.upsert('t1', { grantId: 'g2' }, 60);
    await rt.upsert('t2', { grantId: 'g2' }, 60);
    await rt.upsert('t3', { grantId: 'g3' }, 60);
    await at.revokeByGrantId('g2');
    expect(await at.find('t1')).toBeUndefined();
    expect(await rt.find('t2')).toBeUndefined();
    expect(await rt.find('t3')).toBeDefined();
  });

  it('hides expired payloads and prunes them', async () => {
    // The provider makes its cookie keys with the first sign-in; this start has had none.
    await loadCookieKeys(s.ctx.db);
    const interactions = new DrizzleAdapter(s.ctx.db, 'Interaction');
    await interactions.upsert('i1', { uid: 'x' }, 60);
    await s.ctx.db
      .update(oidcPayloads)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(oidcPayloads.type, 'Interaction'));
    expect(await interactions.find('i1')).toBeUndefined();
    await pruneExpired(s.ctx.db);
    const left = await s.ctx.db.select().from(oidcPayloads);
    expect(left.some((r) => r.type === 'Interaction')).toBe(false);
    // Rows without expiry (the cookie keys) stay.
    expect(left.some((r) => r.type === 'CookieKeys')).toBe(true);
  });
});

describe('cookie keys', () => {
  it('are created once and shared by every start (and replica)', async () => {
    const [a, b] = await Promise.all([loadCookieKeys(s.ctx.db), loadCookieKeys(s.ctx.db)]);
    expect(a).toEqual(b);
    expect(await loadCookieKeys(s.ctx.db)).toEqual(a);
    expect(a[0]).toHaveLength(43);
  });
});
