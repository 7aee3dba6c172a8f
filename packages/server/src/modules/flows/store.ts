import { randomUUID } from 'node:crypto';
import { and, asc, desc, eq, gte, inArray, lte, sql, type SQL } from 'drizzle-orm';
import type { ConfigsMeta, TaskStatus, ResourcePlace } from '@orrery/contract';
import type { Db } from '../../db/client.js';
import type { flowBakeImages, flowLiveJobs } from './tables.js';
import {
  flowAttempts,
  flowBakes,
  flowCacheEntries,
  flowConfigFiles,
  flowProjects,
  flowTasks,
  type StatusItem,
} from './tables.js';

export type FlowProjectRow = typeof flowProjects.$inferSelect;
export type LiveJobRow = typeof flowLiveJobs.$inferSelect;
export type BakeRow = typeof flowBakes.$inferSelect;
export type ConfigFileRow = typeof flowConfigFiles.$inferSelect;
export type AttemptRow = typeof flowAttempts.$inferSelect;
export type TaskRow = typeof flowTasks.$inferSelect;
export type CacheEntryRow = typeof flowCacheEntries.$inferSelect;
export type BakeImageRow = typeof flowBakeImages.$inferSelect;

/** The wire's ids: a kind prefix and a uuid, as the `apolo-flow` client expects. */
export const flowId = (
  kind:
    | 'projects'
    | 'bake'
    | 'attempt'
    | 'task'
    | 'live-job'
    | 'config-file'
    | 'cache-entry'
    | 'bake-image',
) => `${kind}-${randomUUID()}`;

/**
 * Where a flow lives: its permissions are those of `flow://CLUSTER/ORG/PROJECT/…`; its org is ''
 * outside any organization.
 */
export type FlowPlace = ResourcePlace;

export const placeOfProject = (p: FlowProjectRow): FlowPlace => ({
  cluster: p.clusterName,
  org: p.orgName,
  project: p.projectName,
});

// ---- projects ----

export async function projectById(db: Db, id: string) {
  const [row] = await db.select().from(flowProjects).where(eq(flowProjects.id, id));
  return row;
}

export async function projectByName(db: Db, place: FlowPlace, name: string) {
  const [row] = await db
    .select()
    .from(flowProjects)
    .where(
      and(
        eq(flowProjects.clusterName, place.cluster),
        eq(flowProjects.orgName, place.org),
        eq(flowProjects.projectName, place.project),
        eq(flowProjects.name, name),
      ),
    );
  return row;
}

/** The flows of the given places (those the caller may read), newest first. */
export async function projectsIn(db: Db, places: FlowPlace[], name?: string) {
  if (places.length === 0) return [];
  const rows = await db
    .select()
    .from(flowProjects)
    .where(name === undefined ? undefined : eq(flowProjects.name, name))
    .orderBy(asc(flowProjects.name));
  const keys = new Set(places.map((p) => `${p.cluster}/${p.org}/${p.project}`));
  return rows.filter((r) => keys.has(`${r.clusterName}/${r.orgName}/${r.projectName}`));
}

export async function insertProject(
  db: Db,
  place: FlowPlace,
  name: string,
  owner: string,
): Promise<FlowProjectRow> {
  const [row] = await db
    .insert(flowProjects)
    .values({
      id: flowId('projects'),
      name,
      owner,
      clusterName: place.cluster,
      orgName: place.org,
      projectName: place.project,
    })
    .returning();
  return row!;
}

export async function deleteProject(db: Db, id: string) {
  await db.delete(flowProjects).where(eq(flowProjects.id, id));
}

// ---- bakes and attempts ----

export async function bakeById(db: Db, id: string) {
  const [row] = await db.select().from(flowBakes).where(eq(flowBakes.id, id));
  return row;
}

export async function insertBake(
  db: Db,
  values: Omit<typeof flowBakes.$inferInsert, 'id'>,
): Promise<BakeRow> {
  const [row] = await db
    .insert(flowBakes)
    .values({ ...values, id: flowId('bake') })
    .returning();
  return row!;
}

export async function attemptById(db: Db, id: string) {
  const [row] = await db.select().from(flowAttempts).where(eq(flowAttempts.id, id));
  return row;
}

export async function attemptsOf(db: Db, bakeId: string) {
  return db
    .select()
    .from(flowAttempts)
    .where(eq(flowAttempts.bakeId, bakeId))
    .orderBy(asc(flowAttempts.number));
}

/** The attempt of a number; -1 (the wire's) is the last one. */
export async function attemptByNumber(db: Db, bakeId: string, number: number) {
  const [row] = await db
    .select()
    .from(flowAttempts)
    .where(
      number === -1
        ? eq(flowAttempts.bakeId, bakeId)
        : and(eq(flowAttempts.bakeId, bakeId), eq(flowAttempts.number, number)),
    )
    .orderBy(desc(flowAttempts.number))
    .limit(1);
  return row;
}

/** The last attempt of each bake, for lists that embed it. */
export async function lastAttempts(db: Db, bakeIds: string[]) {
  const last = new Map<string, AttemptRow>();
  if (bakeIds.length === 0) return last;
  const rows = await db
    .select()
    .from(flowAttempts)
    .where(inArray(flowAttempts.bakeId, bakeIds))
    .orderBy(asc(flowAttempts.number));
  for (const r of rows) last.set(r.bakeId, r);
  return last;
}

export async function insertAttempt(
  db: Db,
  values: {
    bakeId: string;
    number: number;
    result: TaskStatus;
    configsMeta: ConfigsMeta;
    executorId?: string | null;
    engine?: boolean;
  },
): Promise<AttemptRow> {
  const [row] = await db
    .insert(flowAttempts)
    .values({ ...values, id: flowId('attempt') })
    .returning();
  return row!;
}

/** `attempts/replace`: result and executor of the attempt matched by (bake, number). */
export async function replaceAttempt(
  db: Db,
  bakeId: string,
  number: number,
  change: { result: TaskStatus; executorId?: string | null; configsMeta?: ConfigsMeta },
) {
  const [row] = await db
    .update(flowAttempts)
    .set(change)
    .where(and(eq(flowAttempts.bakeId, bakeId), eq(flowAttempts.number, number)))
    .returning();
  return row;
}

// ---- tasks ----

export async function tasksOf(db: Db, attemptId: string) {
  return db
    .select()
    .from(flowTasks)
    .where(eq(flowTasks.attemptId, attemptId))
    .orderBy(asc(flowTasks.yamlId));
}

export async function taskById(db: Db, id: string) {
  const [row] = await db.select().from(flowTasks).where(eq(flowTasks.id, id));
  return row;
}

export async function taskByYamlId(db: Db, attemptId: string, yamlId: string) {
  const [row] = await db
    .select()
    .from(flowTasks)
    .where(and(eq(flowTasks.attemptId, attemptId), eq(flowTasks.yamlId, yamlId)));
  return row;
}

export interface TaskValues {
  attemptId: string;
  yamlId: string;
  rawId?: string | null;
  outputs?: Record<string, string> | null;
  state?: Record<string, string> | null;
  statuses: StatusItem[];
}

export async function insertTask(db: Db, values: TaskValues): Promise<TaskRow> {
  const [row] = await db
    .insert(flowTasks)
    .values({ ...values, id: flowId('task') })
    .returning();
  return row!;
}

/** `tasks/replace`: the task matched by (attempt, yaml id) takes the whole new record. */
export async function replaceTask(db: Db, values: TaskValues) {
  const [row] = await db
    .update(flowTasks)
    .set({
      rawId: values.rawId ?? null,
      outputs: values.outputs ?? null,
      state: values.state ?? null,
      statuses: values.statuses,
    })
    .where(and(eq(flowTasks.attemptId, values.attemptId), eq(flowTasks.yamlId, values.yamlId)))
    .returning();
  return row;
}

// ---- config files ----

export async function insertConfigFile(
  db: Db,
  values: { bakeId: string; filename: string; content: string },
): Promise<ConfigFileRow> {
  const [row] = await db
    .insert(flowConfigFiles)
    .values({ ...values, id: flowId('config-file') })
    .returning();
  return row!;
}

export async function configFileById(db: Db, id: string) {
  const [row] = await db.select().from(flowConfigFiles).where(eq(flowConfigFiles.id, id));
  return row;
}

// ---- cache entries ----

export interface CacheKey {
  projectId: string;
  batch: string;
  taskId: string;
  key: string;
}

export async function cacheEntryByKey(db: Db, k: CacheKey) {
  const [row] = await db
    .select()
    .from(flowCacheEntries)
    .where(
      and(
        eq(flowCacheEntries.projectId, k.projectId),
        eq(flowCacheEntries.batch, k.batch),
        eq(flowCacheEntries.taskId, k.taskId),
        eq(flowCacheEntries.key, k.key),
      ),
    );
  return row;
}

/** Upsert on (project, task, batch, key): a newer run of the same task replaces the entry. */
export async function upsertCacheEntry(
  db: Db,
  k: CacheKey,
  values: { outputs: Record<string, string>; state: Record<string, string>; rawId?: string | null },
): Promise<CacheEntryRow> {
  const now = new Date();
  const [row] = await db
    .insert(flowCacheEntries)
    .values({ ...k, ...values, id: flowId('cache-entry'), createdAt: now })
    .onConflictDoUpdate({
      target: [
        flowCacheEntries.projectId,
        flowCacheEntries.taskId,
        flowCacheEntries.batch,
        flowCacheEntries.key,
      ],
      set: { ...values, rawId: values.rawId ?? null, createdAt: now },
    })
    .returning();
  return row!;
}

export async function deleteCacheEntries(
  db: Db,
  where: { projectId: string; batch?: string; taskId?: string },
) {
  await db
    .delete(flowCacheEntries)
    .where(
      and(
        eq(flowCacheEntries.projectId, where.projectId),
        where.batch === undefined ? undefined : eq(flowCacheEntries.batch, where.batch),
        where.taskId === undefined ? undefined : eq(flowCacheEntries.taskId, where.taskId),
      ),
    );
}

// ---- what the flow API adds (lists with filters, the place behind an id) ----

/** The wire's project list filters; `org` '' is "no organization", undefined any. */
export interface ProjectFilter {
  name?: string;
  cluster?: string;
  org?: string;
  owner?: string;
  project?: string;
}

export async function projectsMatching(db: Db, f: ProjectFilter) {
  return db
    .select()
    .from(flowProjects)
    .where(
      and(
        f.name === undefined ? undefined : eq(flowProjects.name, f.name),
        f.cluster === undefined ? undefined : eq(flowProjects.clusterName, f.cluster),
        f.org === undefined ? undefined : eq(flowProjects.orgName, f.org),
        f.owner === undefined ? undefined : eq(flowProjects.owner, f.owner),
        f.project === undefined ? undefined : eq(flowProjects.projectName, f.project),
      ),
    )
    .orderBy(asc(flowProjects.name), asc(flowProjects.id));
}

/** A bake of the flow that Orrery's engine is still driving: deleting the flow would orphan it. */
export async function engineBakeActive(db: Db, projectId: string) {
  const [row] = await db
    .select({ id: flowAttempts.id })
    .from(flowAttempts)
    .innerJoin(flowBakes, eq(flowBakes.id, flowAttempts.bakeId))
    .where(
      and(
        eq(flowBakes.projectId, projectId),
        eq(flowAttempts.engine, true),
        inArray(flowAttempts.result, ['pending', 'running']),
      ),
    )
    .limit(1);
  return row !== undefined;
}

export interface BakeFilter {
  name?: string;
  /** Every one of them (AND). */
  tags: string[];
  since?: Date;
  until?: Date;
  /** Newest first. */
  reverse: boolean;
}

export async function bakesOf(db: Db, projectId: string, f: BakeFilter) {
  // Compared at the wire's precision: a bake's own created_at, sent back as `until`, includes it.
  const created = sql`date_trunc('milliseconds', ${flowBakes.createdAt})`;
  const where: (SQL | undefined)[] = [
    eq(flowBakes.projectId, projectId),
    f.name === undefined ? undefined : eq(flowBakes.name, f.name),
    f.since === undefined ? undefined : gte(created, f.since),
    f.until === undefined ? undefined : lte(created, f.until),
    ...f.tags.map((t) => sql`${flowBakes.tags} @> ${JSON.stringify([t])}::jsonb`),
  ];
  const order = f.reverse ? desc : asc;
  return db
    .select()
    .from(flowBakes)
    .where(and(...where))
    .orderBy(order(flowBakes.createdAt), order(flowBakes.id));
}

export async function bakeByName(db: Db, projectId: string, name: string) {
  const [row] = await db
    .select()
    .from(flowBakes)
    .where(and(eq(flowBakes.projectId, projectId), eq(flowBakes.name, name)));
  return row;
}

/** A bake and the flow it belongs to, whose place permissions are checked on. */
export async function bakeWithProject(db: Db, bakeId: string) {
  const [row] = await db
    .select({ bake: flowBakes, project: flowProjects })
    .from(flowBakes)
    .innerJoin(flowProjects, eq(flowProjects.id, flowBakes.projectId))
    .where(eq(flowBakes.id, bakeId));
  return row;
}

export async function attemptWithProject(db: Db, attemptId: string) {
  const [row] = await db
    .select({ attempt: flowAttempts, project: flowProjects })
    .from(flowAttempts)
    .innerJoin(flowBakes, eq(flowBakes.id, flowAttempts.bakeId))
    .innerJoin(flowProjects, eq(flowProjects.id, flowBakes.projectId))
    .where(eq(flowAttempts.id, attemptId));
  return row;
}

export async function taskWithProject(db: Db, taskId: string) {
  const [row] = await db
    .select({ task: flowTasks, project: flowProjects })
    .from(flowTasks)
    .innerJoin(flowAttempts, eq(flowAttempts.id, flowTasks.attemptId))
    .innerJoin(flowBakes, eq(flowBakes.id, flowAttempts.bakeId))
    .innerJoin(flowProjects, eq(flowProjects.id, flowBakes.projectId))
    .where(eq(flowTasks.id, taskId));
  return row;
}

export async function configFileWithProject(db: Db, id: string) {
  const [row] = await db
    .select({ file: flowConfigFiles, project: flowProjects })
    .from(flowConfigFiles)
    .innerJoin(flowBakes, eq(flowBakes.id, flowConfigFiles.bakeId))
    .innerJoin(flowProjects, eq(flowProjects.id, flowBakes.projectId))
    .where(eq(flowConfigFiles.id, id));
  return row;
}

export async function cacheEntryById(db: Db, id: string) {
  const [row] = await db.select().from(flowCacheEntries).where(eq(flowCacheEntries.id, id));
  return row;
}
