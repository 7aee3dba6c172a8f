import { sql } from 'drizzle-orm';
import { pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { projects, users } from '../../db/schema.js';

/**
 * Project tokens (migration 0017): each is a service account, a user of its own (`user_id`) that
 * is a member of one project with `role`. The token is kept only as its SHA-256 (`token_hash`).
 */
export const projectTokens = pgTable(
  'project_tokens',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    projectId: uuid('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    role: text('role').notNull(),
    tokenHash: text('token_hash').notNull(),
    createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('project_tokens_hash').on(t.tokenHash),
    uniqueIndex('project_tokens_user').on(t.userId),
    // A name is free again once its token is revoked.
    uniqueIndex('project_tokens_live_name')
      .on(t.projectId, t.name)
      .where(sql`${t.revokedAt} is null`),
  ],
);
