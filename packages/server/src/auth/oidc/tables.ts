import { index, integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/** Hits of the sign-in pages' rate limits, shared by every replica (migration 0018). */
export const rateLimits = pgTable(
  'rate_limits',
  {
    key: text('key').primaryKey(),
    hits: integer('hits').notNull(),
    windowEnds: timestamp('window_ends', { withTimezone: true }).notNull(),
  },
  (t) => [index('rate_limits_window_ends').on(t.windowEnds)],
);
