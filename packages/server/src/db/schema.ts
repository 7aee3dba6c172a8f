import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  doublePrecision,
  foreignKey,
  type AnyPgColumn,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';

const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();

export const users = pgTable(
  'users',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    username: text('username').notNull().unique(),
    name: text('name').notNull(),
    email: text('email').notNull(),
    emailVerified: boolean('email_verified').notNull().default(false),
    /** scrypt$N$r$p$salt$hash; null for accounts of an external identity provider. */
    passwordHash: text('password_hash'),
    termsAcceptedAt: timestamp('terms_accepted_at', { withTimezone: true }),
    systemRole: text('system_role'),
    picture: text('picture'),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('users_email_lower').on(sql`lower(${t.email})`)],
);

/** One-time links sent by mail: e-mail verification and password reset (stored hashed). */
export const emailTokens = pgTable('email_tokens', {
  tokenHash: text('token_hash').primaryKey(),
  userId: uuid('user_id')
    .notNull()
    .references(() => users.id, { onDelete: 'cascade' }),
  kind: text('kind').notNull(),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  usedAt: timestamp('used_at', { withTimezone: true }),
  createdAt: createdAt(),
});

/** Storage of the embedded OpenID provider (sessions, grants, codes, refresh tokens). */
export const oidcPayloads = pgTable(
  'oidc_payloads',
  {
    id: text('id').notNull(),
    type: text('type').notNull(),
    payload: jsonb('payload').notNull(),
    grantId: text('grant_id'),
    userCode: text('user_code'),
    uid: text('uid'),
    expiresAt: timestamp('expires_at', { withTimezone: true }),
    consumedAt: timestamp('consumed_at', { withTimezone: true }),
  },
  (t) => [
    primaryKey({ columns: [t.type, t.id] }),
    index('oidc_payloads_grant').on(t.grantId),
    index('oidc_payloads_uid').on(t.uid),
  ],
);

/** Signing keys of the embedded provider, shared by every replica. */
export const signingKeys = pgTable('signing_keys', {
  kid: text('kid').primaryKey(),
  jwk: jsonb('jwk').notNull(),
  createdAt: createdAt(),
});

export const organizations = pgTable('organizations', {
  name: text('name').primaryKey(),
  /** Decimal credits; null means unlimited. */
  credits: numeric('credits', { precision: 20, scale: 4 }),
  createdAt: createdAt(),
});

export const orgMembers = pgTable(
  'org_members',
  {
    orgName: text('org_name')
      .notNull()
      .references(() => organizations.name, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    role: text('role').notNull(),
    /** Per-user credit limit in this organization; null means unlimited. */
    credits: numeric('credits', { precision: 20, scale: 4 }),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.orgName, t.userId] }), index('org_members_user').on(t.userId)],
);

export const clusters = pgTable('clusters', {
  name: text('name').primaryKey(),
  location: text('location'),
  logoUrl: text('logo_url'),
  timezone: text('timezone').notNull().default('UTC'),
  /**
   * Storage volumes with their price: [{name, creditsPerHourPerGb, path?}]. A volume with a
   * path (`/org` or `/org/project`) holds that organization's or project's files, as Apolo's
   * do; the one without holds the rest.
   */
  storageVolumes: jsonb('storage_volumes')
    .$type<{ name: string; creditsPerHourPerGb: string; path?: string }[]>()
    .notNull()
    .default([{ name: 'default', creditsPerHourPerGb: '0' }]),
  /** The price of disks: credits per GB of a disk's size and day (migration 0013); 0 is free. */
  diskCreditsPerDayPerGb: numeric('disk_credits_per_day_per_gb', { precision: 20, scale: 4 })
    .notNull()
    .default('0'),
  createdAt: createdAt(),
});

export const nodePools = pgTable(
  'node_pools',
  {
    clusterName: text('cluster_name')
      .notNull()
      .references(() => clusters.name, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    minSize: integer('min_size').notNull(),
    maxSize: integer('max_size').notNull(),
    idleSize: integer('idle_size').notNull().default(0),
    cpu: doublePrecision('cpu').notNull(),
    memory: bigint('memory', { mode: 'number' }).notNull(),
    diskSize: bigint('disk_size', { mode: 'number' }).notNull(),
    isPreemptible: boolean('is_preemptible').notNull().default(false),
    cpuMinWatts: doublePrecision('cpu_min_watts').notNull().default(0),
    cpuMaxWatts: doublePrecision('cpu_max_watts').notNull().default(0),
    /** {nvidia?: {count, model, memory}, amd?: ..., intel?: ...} */
    gpus: jsonb('gpus').notNull().default({}),
  },
  (t) => [primaryKey({ columns: [t.clusterName, t.name] })],
);

export const presets = pgTable(
  'presets',
  {
    clusterName: text('cluster_name')
      .notNull()
      .references(() => clusters.name, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    cpu: doublePrecision('cpu').notNull(),
    memory: bigint('memory', { mode: 'number' }).notNull(),
    creditsPerHour: numeric('credits_per_hour', { precision: 20, scale: 4 }).notNull(),
    isPreemptible: boolean('is_preemptible').notNull().default(false),
    schedulerEnabled: boolean('scheduler_enabled').notNull().default(false),
    gpus: jsonb('gpus').notNull().default({}),
    resourcePoolNames: jsonb('resource_pool_names').$type<string[]>().notNull().default([]),
  },
  (t) => [primaryKey({ columns: [t.clusterName, t.name] })],
);

export const clusterOrgs = pgTable(
  'cluster_orgs',
  {
    clusterName: text('cluster_name')
      .notNull()
      .references(() => clusters.name, { onDelete: 'cascade' }),
    orgName: text('org_name')
      .notNull()
      .references(() => organizations.name, { onDelete: 'cascade' }),
    quotaTotalRunningJobs: integer('quota_total_running_jobs'),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.clusterName, t.orgName] })],
);

export const clusterMembers = pgTable(
  'cluster_members',
  {
    clusterName: text('cluster_name')
      .notNull()
      .references(() => clusters.name, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    role: text('role').notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.clusterName, t.userId] })],
);

export const projects = pgTable(
  'projects',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    clusterName: text('cluster_name')
      .notNull()
      .references(() => clusters.name, { onDelete: 'cascade' }),
    orgName: text('org_name')
      .notNull()
      .references(() => organizations.name, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    isDefault: boolean('is_default').notNull().default(false),
    defaultRole: text('default_role').notNull().default('writer'),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('projects_path').on(t.clusterName, t.orgName, t.name)],
);

export const projectMembers = pgTable(
  'project_members',
  {
    projectId: uuid('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    role: text('role').notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.projectId, t.userId] }),
    index('project_members_user').on(t.userId),
  ],
);

/** Shares: a grant of one action on one URI (and below it) to one user. */
export const permissions = pgTable(
  'permissions',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    uri: text('uri').notNull(),
    action: text('action').notNull(),
    grantedBy: uuid('granted_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.uri] }), index('permissions_uri').on(t.uri)],
);

/** A project's resources go with the project. */
const inProject = (t: {
  clusterName: AnyPgColumn;
  orgName: AnyPgColumn;
  projectName: AnyPgColumn;
}) =>
  foreignKey({
    columns: [t.clusterName, t.orgName, t.projectName],
    foreignColumns: [projects.clusterName, projects.orgName, projects.name],
  }).onDelete('cascade');

/** Secrets of a project: values encrypted with AES-256-GCM, never stored or logged in clear. */
export const secrets = pgTable(
  'secrets',
  {
    clusterName: text('cluster_name').notNull(),
    orgName: text('org_name').notNull(),
    projectName: text('project_name').notNull(),
    key: text('key').notNull(),
    /** base64 of iv (12 bytes) ‖ auth tag (16 bytes) ‖ ciphertext. */
    sealed: text('sealed').notNull(),
    ownerId: uuid('owner_id').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.clusterName, t.orgName, t.projectName, t.key] }), inProject(t)],
);

/** Disks of a project: a directory with a size limit on the local runtime, a PVC on Kubernetes. */
export const disks = pgTable(
  'disks',
  {
    id: text('id').primaryKey(),
    clusterName: text('cluster_name').notNull(),
    orgName: text('org_name').notNull(),
    projectName: text('project_name').notNull(),
    name: text('name'),
    storage: bigint('storage', { mode: 'number' }).notNull(),
    usedBytes: bigint('used_bytes', { mode: 'number' }),
    status: text('status').notNull().default('Pending'),
    ownerId: uuid('owner_id').references(() => users.id, { onDelete: 'set null' }),
    /** Seconds a disk may stay unused before it is deleted; null keeps it. */
    lifeSpan: doublePrecision('life_span'),
    lastUsage: timestamp('last_usage', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('disks_name')
      .on(t.clusterName, t.orgName, t.projectName, t.name)
      .where(sql`${t.name} is not null`),
    index('disks_project').on(t.clusterName, t.orgName, t.projectName),
    inProject(t),
  ],
);

/**
 * Buckets of a project: made by Orrery on the cluster's S3 endpoint (`provider_bucket_name` is
 * the name there), or imported with the provider's own credentials (sealed like secrets).
 */
export const buckets = pgTable(
  'buckets',
  {
    id: text('id').primaryKey(),
    clusterName: text('cluster_name').notNull(),
    orgName: text('org_name').notNull(),
    projectName: text('project_name').notNull(),
    name: text('name'),
    provider: text('provider').notNull(),
    providerBucketName: text('provider_bucket_name').notNull(),
    imported: boolean('imported').notNull().default(false),
    public: boolean('public').notNull().default(false),
    /** Imported buckets only: the provider credentials, sealed with the secrets key. */
    sealedCredentials: text('sealed_credentials'),
    ownerId: uuid('owner_id').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('buckets_name')
      .on(t.clusterName, t.orgName, t.projectName, t.name)
      .where(sql`${t.name} is not null`),
    index('buckets_project').on(t.clusterName, t.orgName, t.projectName),
    inProject(t),
  ],
);

/** Persistent credentials to some buckets of a project, for use outside the platform. */
export const bucketCredentials = pgTable(
  'bucket_credentials',
  {
    id: text('id').primaryKey(),
    clusterName: text('cluster_name').notNull(),
    orgName: text('org_name').notNull(),
    projectName: text('project_name').notNull(),
    name: text('name'),
    readOnly: boolean('read_only').notNull().default(false),
    ownerId: uuid('owner_id').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('bucket_credentials_name')
      .on(t.clusterName, t.orgName, t.projectName, t.name)
      .where(sql`${t.name} is not null`),
    index('bucket_credentials_project').on(t.clusterName, t.orgName, t.projectName),
    inProject(t),
  ],
);

/** Which buckets a set of persistent credentials opens; a deleted bucket leaves them. */
export const bucketCredentialBuckets = pgTable(
  'bucket_credential_buckets',
  {
    credentialId: text('credential_id')
      .notNull()
      .references(() => bucketCredentials.id, { onDelete: 'cascade' }),
    bucketId: text('bucket_id')
      .notNull()
      .references(() => buckets.id, { onDelete: 'cascade' }),
  },
  (t) => [
    primaryKey({ columns: [t.credentialId, t.bucketId] }),
    index('bucket_credential_buckets_bucket').on(t.bucketId),
  ],
);

/**
 * Jobs (docs/jobs-api.md): the service's record of what was asked and what happened. The
 * request (container, volumes, env, preset resources) is kept whole in `spec` so a rerun and a
 * restart reconciliation start exactly the same thing.
 */
export const jobs = pgTable(
  'jobs',
  {
    id: text('id').primaryKey(),
    clusterName: text('cluster_name').notNull(),
    orgName: text('org_name').notNull(),
    projectName: text('project_name').notNull(),
    ownerId: uuid('owner_id').references(() => users.id, { onDelete: 'set null' }),
    /** Kept as written: the owner's name outlives a deleted account in the history. */
    owner: text('owner').notNull(),
    name: text('name'),
    description: text('description'),
    tags: jsonb('tags').$type<string[]>().notNull().default([]),
    presetName: text('preset_name'),
    status: text('status').notNull(),
    reason: text('reason'),
    statusDescription: text('status_description'),
    exitCode: integer('exit_code'),
    restarts: integer('restarts').notNull().default(0),
    startedAt: timestamp('started_at', { withTimezone: true }),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
    /** The container as the job JSON shows it (image, resources, env, volumes, http, ...). */
    container: jsonb('container').notNull(),
    restartPolicy: text('restart_policy').notNull().default('never'),
    priority: text('priority').notNull().default('normal'),
    schedulerEnabled: boolean('scheduler_enabled').notNull().default(false),
    passConfig: boolean('pass_config').notNull().default(false),
    privileged: boolean('privileged').notNull().default(false),
    preemptible: boolean('preemptible').notNull().default(false),
    waitForJobsQuota: boolean('wait_for_jobs_quota').notNull().default(false),
    maxRunTimeMinutes: integer('max_run_time_minutes'),
    scheduleTimeout: doublePrecision('schedule_timeout'),
    energyScheduleName: text('energy_schedule_name'),
    pricePerHour: numeric('price_per_hour', { precision: 20, scale: 4 }).notNull().default('0'),
    totalPrice: numeric('total_price', { precision: 20, scale: 4 }).notNull().default('0'),
    /** Up to when the running time has been charged. */
    billedUntil: timestamp('billed_until', { withTimezone: true }),
    runtime: text('runtime').notNull(),
    materialized: boolean('materialized').notNull().default(false),
    logsRemoved: boolean('logs_removed').notNull().default(false),
    createdAt: createdAt(),
  },
  (t) => [
    index('jobs_project_created').on(t.clusterName, t.orgName, t.projectName, t.createdAt),
    index('jobs_status').on(t.status),
    index('jobs_name').on(t.clusterName, t.orgName, t.projectName, t.name),
    inProject(t),
  ],
);

/** Every status transition of a job, in order (the `statuses` of the job JSON). */
export const jobStatuses = pgTable(
  'job_statuses',
  {
    jobId: text('job_id')
      .notNull()
      .references(() => jobs.id, { onDelete: 'cascade' }),
    seq: integer('seq').notNull(),
    status: text('status').notNull(),
    reason: text('reason'),
    description: text('description'),
    exitCode: integer('exit_code'),
    transitionTime: timestamp('transition_time', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.jobId, t.seq] })],
);

/**
 * Metered usage: one row per charged interval of a resource, against the organization, the
 * project and the user. Billing reads these; balances are updated in the same transaction.
 */
export const usageRecords = pgTable(
  'usage_records',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    category: text('category').notNull(),
    clusterName: text('cluster_name').notNull(),
    orgName: text('org_name').notNull(),
    projectName: text('project_name').notNull(),
    userId: uuid('user_id').references(() => users.id, { onDelete: 'set null' }),
    /** e.g. the job URI; with `startedAt`, charged once (migration 0008). */
    resourceUri: text('resource_uri').notNull(),
    /** What was charged, by name: a job's id, an app instance's name, a storage volume's name. */
    resourceId: text('resource_id').notNull().default(''),
    presetName: text('preset_name'),
    startedAt: timestamp('started_at', { withTimezone: true }).notNull(),
    endedAt: timestamp('ended_at', { withTimezone: true }).notNull(),
    credits: numeric('credits', { precision: 20, scale: 4 }).notNull(),
  },
  (t) => [
    index('usage_org_time').on(t.orgName, t.startedAt),
    // Also usage_org_time_cover (migration 0010): its INCLUDE columns have no builder here.
    index('usage_time').on(t.startedAt),
    uniqueIndex('usage_resource_period').on(t.resourceUri, t.startedAt),
  ],
);

/** Invitations to an organization by e-mail; the status is pending until accepted or declined. */
export const invites = pgTable(
  'invites',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    orgName: text('org_name')
      .notNull()
      .references(() => organizations.name, { onDelete: 'cascade' }),
    email: text('email').notNull(),
    role: text('role').notNull(),
    /** pending, accepted or declined; expiry is read from `expires_at`. */
    status: text('status').notNull().default('pending'),
    invitedBy: uuid('invited_by').references(() => users.id, { onDelete: 'set null' }),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('invites_email').on(sql`lower(${t.email})`), index('invites_org').on(t.orgName)],
);

/**
 * Counters of changes (`access`, `secrets`, `jobs`), bumped in the writing transaction by the
 * triggers of migration 0005, with a `pg_notify`: caches shared between requests are valid for
 * one value (db/epochs.ts).
 */
export const epochs = pgTable('epochs', {
  name: text('name').primaryKey(),
  value: bigint('value', { mode: 'number' }).notNull(),
});
