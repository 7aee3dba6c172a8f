import type { Db } from '../../db/client.js';
import { countHit } from '../../auth/oidc/rate-limit-store.js';

/**
 * The window of the per-user limit; how many questions fit in it is
 * ORRERY_ASSISTANT_QUESTIONS_PER_MINUTE (20 by default).
 */
export const COPILOT_WINDOW_MS = 60_000;

export const rateLimitText = (questions: number, windowMs: number, retryMs: number) =>
  `Too many questions: at most ${questions} every ${windowMs / 1000} s. Try again in ${Math.max(1, Math.ceil(retryMs / 1000))} s`;

/**
 * Questions per user, counted in the `rate_limits` table with the sign-in limits: a fixed window
 * per user on the database's clock, so every replica counts the same questions (and PGlite's
 * single process the same way). A refused question is counted too, which costs nothing: the
 * window ends when it was going to, and the count starts again.
 */
export class RateLimiter {
  constructor(
    private readonly db: Db,
    readonly questions: number,
    readonly windowMs: number = COPILOT_WINDOW_MS,
  ) {}

  /** Null when `user` may ask now (and it is counted), else the milliseconds until they may. */
  async take(user: string): Promise<number | null> {
    const { current, ttl } = await countHit(this.db, `assistant question ${user}`, this.windowMs);
    return current > this.questions ? Math.max(1, ttl) : null;
  }
}
