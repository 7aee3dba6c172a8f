import { pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { organizations, users } from '../../../db/schema.js';
import { appInstances } from '../../apps/tables.js';

/** The llm-inference app an organization's manager chose for its assistant (migration 0016). */
export const assistantOrgModels = pgTable('assistant_org_models', {
  orgName: text('org_name')
    .primaryKey()
    .references(() => organizations.name, { onDelete: 'cascade' }),
  appInstanceId: uuid('app_instance_id')
    .notNull()
    .references(() => appInstances.id, { onDelete: 'cascade' }),
  setBy: uuid('set_by').references(() => users.id, { onDelete: 'set null' }),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});
