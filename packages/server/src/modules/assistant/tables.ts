import { index, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { users } from '../../db/schema.js';

const at = (name: string) => timestamp(name, { withTimezone: true });

/**
 * Plans the assistant proposed (migration 0015): the exact call a confirmation makes, for whom,
 * until when. Kept in the database so that any replica can confirm a plan another one proposed;
 * the confirmation itself is stored only as its SHA-256, so a read of the table cannot confirm.
 */
export const assistantPlans = pgTable(
  'assistant_plans',
  {
    id: text('id').primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    title: text('title').notNull(),
    method: text('method').notNull(),
    path: text('path').notNull(),
    body: jsonb('body'),
    cluster: text('cluster_name').notNull(),
    org: text('org_name').notNull(),
    project: text('project_name').notNull(),
    creditsPerHour: text('credits_per_hour'),
    /** Where the result is seen in the console, once done. */
    resultUrl: text('result_url'),
    /** What the confirmation answers when the call succeeded. */
    doneMessage: text('done_message').notNull(),
    confirmationHash: text('confirmation_hash').notNull(),
    createdAt: at('created_at').notNull().defaultNow(),
    expiresAt: at('expires_at').notNull(),
    consumedAt: at('consumed_at'),
  },
  (t) => [index('assistant_plans_expires').on(t.expiresAt)],
);

export type PlanRow = typeof assistantPlans.$inferSelect;
