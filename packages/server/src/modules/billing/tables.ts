import {
  bigint,
  bigserial,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  primaryKey,
  real,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { clusters, organizations, users } from '../../db/schema.js';

/**
 * Every change of an organization's balance (migration 0007): usage charged, a grant or a set by
 * an administrator, a purchase. `credits` is the signed change; `balanceAfter` the balance it left
 * (null: unlimited). While the balance is finite, it equals the sum of the rows since the last
 * row that set it (`kind` set) — the Credits tab shows these rows.
 */
export const creditLedger = pgTable(
  'credit_ledger',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    orgName: text('org_name')
      .notNull()
      .references(() => organizations.name, { onDelete: 'cascade' }),
    /** usage, grant (credits added), set (balance set, or made unlimited), purchase. */
    kind: text('kind').notNull(),
    credits: numeric('credits', { precision: 20, scale: 4 }).notNull(),
    balanceAfter: numeric('balance_after', { precision: 20, scale: 4 }),
    /** Whose usage, or who granted: a user of the platform, when there is one. */
    userId: uuid('user_id').references(() => users.id, { onDelete: 'set null' }),
    /** What it is about: a job or app URI, a checkout session id, … */
    reference: text('reference'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('credit_ledger_org_time').on(t.orgName, t.createdAt)],
);

/**
 * Stripe events already handled (migration 0009): Stripe delivers an event more than once, and
 * the row is written in the transaction that credits, so a replay changes nothing.
 */
export const stripeEvents = pgTable('stripe_events', {
  id: text('id').primaryKey(),
  type: text('type').notNull(),
  receivedAt: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * Credits bought, one row per paid checkout (a Stripe Checkout Session id, or a test checkout's
 * id): the key that makes a second event about the same session credit nothing.
 */
export const purchases = pgTable('purchases', {
  sessionId: text('session_id').primaryKey(),
  orgName: text('org_name')
    .notNull()
    .references(() => organizations.name, { onDelete: 'cascade' }),
  credits: integer('credits').notNull(),
  amountInCents: integer('amount_in_cents').notNull(),
  /** stripe or test */
  provider: text('provider').notNull(),
  /** Who started the checkout. */
  userId: uuid('user_id').references(() => users.id, { onDelete: 'set null' }),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

/** Orrery's own checkout in test mode, where no money moves: what a manager is about to buy. */
export const testCheckouts = pgTable('test_checkouts', {
  id: uuid('id').primaryKey().defaultRandom(),
  orgName: text('org_name')
    .notNull()
    .references(() => organizations.name, { onDelete: 'cascade' }),
  credits: integer('credits').notNull(),
  /** open, paid or cancelled */
  status: text('status').notNull().default('open'),
  successUrl: text('success_url').notNull(),
  cancelUrl: text('cancel_url').notNull(),
  userId: uuid('user_id').references(() => users.id, { onDelete: 'set null' }),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * A monthly budget (migration 0011) of an organization (`projectName` empty) or of one of its
 * projects, by name across clusters; thresholds in percent, increasing.
 */
export const budgets = pgTable(
  'budgets',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    orgName: text('org_name')
      .notNull()
      .references(() => organizations.name, { onDelete: 'cascade' }),
    projectName: text('project_name').notNull().default(''),
    credits: numeric('credits', { precision: 20, scale: 4 }).notNull(),
    thresholds: jsonb('thresholds').$type<number[]>().notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('budgets_scope').on(t.orgName, t.projectName)],
);

/**
 * A threshold crossed in a month: the key that makes every replica's checker mail the managers
 * once per budget, month and threshold.
 */
export const budgetAlerts = pgTable(
  'budget_alerts',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    budgetId: uuid('budget_id')
      .notNull()
      .references(() => budgets.id, { onDelete: 'cascade' }),
    /** YYYY-MM, UTC */
    period: text('period').notNull(),
    threshold: integer('threshold').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('budget_alerts_once').on(t.budgetId, t.period, t.threshold)],
);

/**
 * Each node pool's used and total CPU, memory (bytes) and GPUs, every five minutes (migration
 * 0012, reports-sampler.ts): the clusters' utilisation reports. The key makes a second replica's
 * sample of the same five minutes write nothing.
 */
export const poolSamples = pgTable(
  'pool_samples',
  {
    clusterName: text('cluster_name')
      .notNull()
      .references(() => clusters.name, { onDelete: 'cascade' }),
    poolName: text('pool_name').notNull(),
    sampledAt: timestamp('sampled_at', { withTimezone: true }).notNull(),
    cpuUsed: real('cpu_used').notNull(),
    cpuTotal: real('cpu_total').notNull(),
    memoryUsed: bigint('memory_used', { mode: 'number' }).notNull(),
    memoryTotal: bigint('memory_total', { mode: 'number' }).notNull(),
    gpuUsed: integer('gpu_used').notNull(),
    gpuTotal: integer('gpu_total').notNull(),
  },
  (t) => [
    primaryKey({ name: 'pool_samples_pk', columns: [t.clusterName, t.poolName, t.sampledAt] }),
  ],
);
