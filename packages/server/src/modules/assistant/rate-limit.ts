/**
 * The window of the per-user limit; how many questions fit in it is ORRERY_ASSISTANT_QUESTIONS_PER_MINUTE
 * (20 by default), per replica: the window is kept in memory.
 */
export const COPILOT_WINDOW_MS = 60_000;

export const rateLimitText = (questions: number, windowMs: number, retryMs: number) =>
  `Too many questions: at most ${questions} every ${windowMs / 1000} s. Try again in ${Math.max(1, Math.ceil(retryMs / 1000))} s`;

/**
 * A sliding window per user: the times of their last questions. A question is counted only when
 * allowed, so a user who keeps asking while refused is let in again once the window moves on.
 */
export class RateLimiter {
  private readonly asked = new Map<string, number[]>();
  private takes = 0;

  constructor(
    readonly questions: number,
    readonly windowMs: number = COPILOT_WINDOW_MS,
    private readonly now: () => number = Date.now,
  ) {}

  /** Null when `user` may ask now (and it is counted), else the milliseconds until they may. */
  take(user: string): number | null {
    const now = this.now();
    if (++this.takes % 1000 === 0) this.sweep(now);
    const recent = (this.asked.get(user) ?? []).filter((t) => now - t < this.windowMs);
    if (recent.length >= this.questions) {
      this.asked.set(user, recent);
      return recent[0]! + this.windowMs - now;
    }
    recent.push(now);
    this.asked.set(user, recent);
    return null;
  }

  /** Users who asked nothing within the window are forgotten. */
  private sweep(now: number) {
    for (const [user, times] of this.asked)
      if (times.every((t) => now - t >= this.windowMs)) this.asked.delete(user);
  }
}
