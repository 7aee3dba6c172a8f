import {
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';
import type { BakeGraphs, ConfigsMeta, TaskStatus } from '@orrery/contract';
import { users } from '../../db/schema.js';

const at = (name: string) => timestamp(name, { withTimezone: true });
type StringMap = Record<string, string>;
export interface StatusItem {
  created_at: string;
  status: TaskStatus;
}

/**
 * The flow API's store (migration 0014): what the `apolo-flow` client and Orrery's own engine
 * record. Ids carry the wire's prefixes (`projects-…`, `bake-…`); every row hangs off a flow
 * project, whose place (cluster, org, project) is what permissions are checked on.
 */
export const flowProjects = pgTable(
  'flow_projects',
  {
    id: text('id').primaryKey(),
    name: text('name').notNull(),
    owner: text('owner').notNull(),
    clusterName: text('cluster_name').notNull(),
    /** '' for a project outside any organization (the wire's "no org"). */
    orgName: text('org_name').notNull(),
    projectName: text('project_name').notNull(),
    createdAt: at('created_at').notNull().defaultNow(),
  },
  // One flow of a name per project, whoever baked it first: the project's members share it.
  (t) => [
    uniqueIndex('flow_projects_place_name').on(t.clusterName, t.orgName, t.projectName, t.name),
  ],
);

export const flowLiveJobs = pgTable(
  'flow_live_jobs',
  {
    id: text('id').primaryKey(),
    projectId: text('project_id')
      .notNull()
      .references(() => flowProjects.id, { onDelete: 'cascade' }),
    yamlId: text('yaml_id').notNull(),
    multi: boolean('multi').notNull().default(false),
    tags: jsonb('tags').$type<string[]>().notNull().default([]),
    rawId: text('raw_id'),
  },
  (t) => [uniqueIndex('flow_live_jobs_yaml').on(t.projectId, t.yamlId)],
);

export const flowBakes = pgTable(
  'flow_bakes',
  {
    id: text('id').primaryKey(),
    projectId: text('project_id')
      .notNull()
      .references(() => flowProjects.id, { onDelete: 'cascade' }),
    name: text('name'),
    batch: text('batch').notNull(),
    tags: jsonb('tags').$type<string[]>().notNull().default([]),
    graphs: jsonb('graphs').$type<BakeGraphs>().notNull(),
    params: jsonb('params').$type<StringMap | null>(),
    meta: jsonb('meta').$type<{ git_info?: unknown }>().notNull(),
    /** Who created it: the engine runs its tasks as this user. */
    creatorId: uuid('creator_id').references(() => users.id, { onDelete: 'set null' }),
    createdAt: at('created_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('flow_bakes_name')
      .on(t.projectId, t.name)
      .where(sql`${t.name} IS NOT NULL`),
    index('flow_bakes_project').on(t.projectId, t.createdAt),
  ],
);

export const flowConfigFiles = pgTable(
  'flow_config_files',
  {
    id: text('id').primaryKey(),
    bakeId: text('bake_id')
      .notNull()
      .references(() => flowBakes.id, { onDelete: 'cascade' }),
    filename: text('filename').notNull(),
    content: text('content').notNull(),
  },
  (t) => [index('flow_config_files_bake').on(t.bakeId)],
);

export const flowAttempts = pgTable(
  'flow_attempts',
  {
    id: text('id').primaryKey(),
    bakeId: text('bake_id')
      .notNull()
      .references(() => flowBakes.id, { onDelete: 'cascade' }),
    number: integer('number').notNull(),
    result: text('result').$type<TaskStatus>().notNull(),
    executorId: text('executor_id'),
    configsMeta: jsonb('configs_meta').$type<ConfigsMeta>().notNull(),
    /** Driven by Orrery's bake engine (started from the console or `flow/bakes/start`). */
    engine: boolean('engine').notNull().default(false),
    createdAt: at('created_at').notNull().defaultNow(),
  },
  (t) => [uniqueIndex('flow_attempts_number').on(t.bakeId, t.number)],
);

export const flowTasks = pgTable(
  'flow_tasks',
  {
    id: text('id').primaryKey(),
    attemptId: text('attempt_id')
      .notNull()
      .references(() => flowAttempts.id, { onDelete: 'cascade' }),
    yamlId: text('yaml_id').notNull(),
    rawId: text('raw_id'),
    outputs: jsonb('outputs').$type<StringMap | null>(),
    state: jsonb('state').$type<StringMap | null>(),
    /** The whole history; the last item is the task's status. */
    statuses: jsonb('statuses').$type<StatusItem[]>().notNull(),
  },
  (t) => [uniqueIndex('flow_tasks_yaml').on(t.attemptId, t.yamlId)],
);

export const flowCacheEntries = pgTable(
  'flow_cache_entries',
  {
    id: text('id').primaryKey(),
    projectId: text('project_id')
      .notNull()
      .references(() => flowProjects.id, { onDelete: 'cascade' }),
    batch: text('batch').notNull(),
    taskId: text('task_id').notNull(),
    key: text('key').notNull(),
    outputs: jsonb('outputs').$type<StringMap>().notNull(),
    state: jsonb('state').$type<StringMap>().notNull(),
    rawId: text('raw_id'),
    createdAt: at('created_at').notNull().defaultNow(),
  },
  (t) => [uniqueIndex('flow_cache_entries_key').on(t.projectId, t.taskId, t.batch, t.key)],
);

export const flowBakeImages = pgTable(
  'flow_bake_images',
  {
    id: text('id').primaryKey(),
    bakeId: text('bake_id')
      .notNull()
      .references(() => flowBakes.id, { onDelete: 'cascade' }),
    ref: text('ref').notNull(),
    status: text('status').notNull(),
    yamlDefs: jsonb('yaml_defs').$type<string[]>().notNull().default([]),
    contextOnStorage: text('context_on_storage'),
    dockerfileRel: text('dockerfile_rel'),
    builderJobId: text('builder_job_id'),
    prefix: text('prefix'),
    yamlId: text('yaml_id'),
  },
  (t) => [uniqueIndex('flow_bake_images_ref').on(t.bakeId, t.ref)],
);
