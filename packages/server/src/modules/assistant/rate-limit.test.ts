import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { like } from 'drizzle-orm';
import { engine, startTestServer, type TestServer } from '../../test/harness.js';
import { twoReplicas } from '../../test/fixtures.js';
import { rateLimits } from '../../auth/oidc/tables.js';
import { RateLimiter, rateLimitText } from './rate-limit.js';

describe('assistant rate limit (in the rate_limits table)', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer();
  });
  afterAll(() => s.stop());

  it('counts per user in a window every limiter shares, and lets the user in once it ends', async () => {
    // Two limiters on one database stand for two server processes: no state lives in either.
    const [one, two] = [new RateLimiter(s.ctx.db, 3), new RateLimiter(s.ctx.db, 3)];
    expect(await one.take('ann')).toBeNull();
    expect(await two.take('ann')).toBeNull();
    expect(await one.take('ann')).toBeNull();
    const wait = await two.take('ann');
    expect(wait).toBeGreaterThan(0);
    expect(wait).toBeLessThanOrEqual(60_000);
    expect(await one.take('bob')).toBeNull();
    // The window ends (on the database's clock): the count starts again.
    await s.ctx.db
      .update(rateLimits)
      .set({ windowEnds: new Date(Date.now() - 1000) })
      .where(like(rateLimits.key, '%ann'));
    expect(await one.take('ann')).toBeNull();
    expect(rateLimitText(3, 60_000, 10_000)).toBe(
      'Too many questions: at most 3 every 60 s. Try again in 10 s',
    );
  });
});

describe.runIf(engine === 'postgres')('assistant rate limit on two replicas', () => {
  const r = twoReplicas();

  it('a question asked through one replica counts on the other', async () => {
    const [a, b] = [new RateLimiter(r.a.ctx.db, 2), new RateLimiter(r.b.ctx.db, 2)];
    expect(await a.take('cy')).toBeNull();
    expect(await b.take('cy')).toBeNull();
    expect(await a.take('cy')).toBeGreaterThan(0);
    expect(await b.take('cy')).toBeGreaterThan(0);
  });
});
