import { sql } from 'drizzle-orm';
import {
  bigserial,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { users } from '../../db/schema.js';
import type { HealthCheck } from './health.js';

const at = (name: string) => timestamp(name, { withTimezone: true });

/** Installed apps (migration 0006): one row per instance, its current state and revision. */
export const appInstances = pgTable(
  'app_instances',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    clusterName: text('cluster_name').notNull(),
    orgName: text('org_name').notNull(),
    projectName: text('project_name').notNull(),
    /** A slug unique among the project's instances; names the persistent home. */
    name: text('name').notNull(),
    displayName: text('display_name').notNull(),
    templateName: text('template_name').notNull(),
    templateVersion: text('template_version').notNull(),
    state: text('state').notNull(),
    creatorId: uuid('creator_id').references(() => users.id, { onDelete: 'set null' }),
    creator: text('creator').notNull(),
    revision: integer('revision').notNull().default(1),
    /** The preset after the fallback rule. */
    presetName: text('preset_name').notNull(),
    /** The start-up step until healthy (waiting_for_capacity, starting, waiting_for_http). */
    step: text('step'),
    stepSince: at('step_since'),
    stepMessage: text('step_message'),
    /** Idle shutdown: the last activity seen, and when the jobs were stopped for it. */
    lastActivityAt: at('last_activity_at'),
    idleStoppedAt: at('idle_stopped_at'),
    createdAt: at('created_at').notNull().defaultNow(),
    updatedAt: at('updated_at').notNull().defaultNow(),
  },
  (t) => [
    index('app_instances_place').on(t.clusterName, t.orgName, t.projectName),
    // An uninstalled instance keeps its row (events, usage) but frees its name.
    uniqueIndex('app_instances_name')
      .on(t.clusterName, t.orgName, t.projectName, t.name)
      .where(sql`${t.state} <> 'uninstalled'`),
  ],
);

/** Each install, configure and rollback: the input it ran with (integrations resolved). */
export const appRevisions = pgTable(
  'app_revisions',
  {
    instanceId: uuid('instance_id')
      .notNull()
      .references(() => appInstances.id, { onDelete: 'cascade' }),
    number: integer('number').notNull(),
    templateVersion: text('template_version').notNull(),
    /** The input as given, integration references kept (what get-input answers). */
    input: jsonb('input').$type<Record<string, unknown>>().notNull(),
    /** The input the jobs were planned from: references replaced by the values they named. */
    resolved: jsonb('resolved').$type<Record<string, unknown>>().notNull(),
    /** The runner's check for this revision (AppPlan.health), null without one. */
    health: jsonb('health').$type<HealthCheck | null>(),
    creator: text('creator').notNull(),
    comment: text('comment'),
    createdAt: at('created_at').notNull().defaultNow(),
    endAt: at('end_at'),
  },
  (t) => [primaryKey({ columns: [t.instanceId, t.number] })],
);

/** Every state transition of an instance (`app get-status`). */
export const appEvents = pgTable(
  'app_events',
  {
    seq: bigserial('seq', { mode: 'number' }).primaryKey(),
    instanceId: uuid('instance_id')
      .notNull()
      .references(() => appInstances.id, { onDelete: 'cascade' }),
    createdAt: at('created_at').notNull().defaultNow(),
    state: text('state').notNull(),
    reason: text('reason'),
    message: text('message'),
    resources: jsonb('resources')
      .$type<
        {
          kind: string;
          name: string;
          uid: string;
          health_status: string;
          health_message: string | null;
        }[]
      >()
      .notNull()
      .default([]),
  },
  (t) => [index('app_events_instance').on(t.instanceId, t.seq)],
);

/** An input field of `instanceId` that refers to an output of `targetId` (an integration). */
export const appLinks = pgTable(
  'app_links',
  {
    instanceId: uuid('instance_id')
      .notNull()
      .references(() => appInstances.id, { onDelete: 'cascade' }),
    field: text('field').notNull(),
    targetId: uuid('target_id')
      .notNull()
      .references(() => appInstances.id, { onDelete: 'cascade' }),
    path: text('path').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.instanceId, t.field] }),
    index('app_links_target').on(t.targetId),
  ],
);
