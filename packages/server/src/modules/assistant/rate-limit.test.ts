import { describe, expect, it } from 'vitest';
import { RateLimiter, rateLimitText } from './rate-limit.js';

describe('rate limit', () => {
  it('lets a user ask again as the window moves on, and counts refusals for nothing', () => {
    let now = 0;
    const limiter = new RateLimiter(3, 60_000, () => now);
    for (const t of [0, 10_000, 20_000]) {
      now = t;
      expect(limiter.take('ann')).toBeNull();
    }
    now = 30_000;
    expect(limiter.take('ann')).toBe(30_000);
    expect(limiter.take('bob')).toBeNull();
    now = 59_999;
    expect(limiter.take('ann')).toBe(1);
    now = 60_000;
    expect(limiter.take('ann')).toBeNull();
    expect(limiter.take('ann')).toBe(10_000);
    expect(rateLimitText(3, 60_000, 10_000)).toBe(
      'Too many questions: at most 3 every 60 s. Try again in 10 s',
    );
  });
});
