import type { ResourcePlace } from '@orrery/contract';
import {
  and,
  asc,
  count,
  desc,
  eq,
  gt,
  gte,
  ilike,
  inArray,
  lt,
  lte,
  notInArray,
  or,
  sql,
  type SQL,
} from 'drizzle-orm';
import { FINAL_JOB_STATUSES, type JobStatus } from '@orrery/contract';
import type { Db } from '../../db/client.js';
import { jobs, jobStatuses } from '../../db/schema.js';

export type JobRow = typeof jobs.$inferSelect;
export type JobInsert = typeof jobs.$inferInsert;
export type JobStatusRow = typeof jobStatuses.$inferSelect;

/** Where the resource lives (the contract's one shape for it). */
export type ProjectPlace = ResourcePlace;

/** A status change as the service decides it; the store records it in the job and its history. */
export interface Transition {
  status: JobStatus;
  reason?: string | null;
  description?: string | null;
  exitCode?: number | null;
  at?: Date;
}

export async function insertJob(db: Db, values: JobInsert, first: Transition) {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .insert(jobs)
      .values({ ...values, status: first.status, reason: first.reason ?? null })
      .returning();
    await tx.insert(jobStatuses).values({
      jobId: row!.id,
      seq: 0,
      status: first.status,
      reason: first.reason ?? null,
      description: first.description ?? null,
      transitionTime: row!.createdAt,
    });
    return row!;
  });
}

export async function jobById(db: Db, id: string) {
  const [row] = await db.select().from(jobs).where(eq(jobs.id, id));
  return row ?? null;
}

/** A job by id, or the newest job of that name in one of the given projects. */
export async function jobByIdOrName(db: Db, idOrName: string, places?: ProjectPlace[]) {
  const byId = await jobById(db, idOrName);
  if (byId) return byId;
  if (!places || places.length === 0) return null;
  const [row] = await db
    .select()
    .from(jobs)
    .where(and(eq(jobs.name, idOrName), or(...places.map(inPlace))))
    .orderBy(desc(jobs.createdAt))
    .limit(1);
  return row ?? null;
}

/**
 * The job a name-based ingress key `{name}--{project}--{org}` stands for: the live job of that
 * name in that project (names are unique among live jobs of a project), else its newest one.
 * Job names have no `--` (JOB_NAME), so the name ends at the first one.
 */
export async function jobByIngressName(db: Db, key: string) {
  const at = key.indexOf('--');
  if (at < 1) return null;
  const name = key.slice(0, at);
  const place = key.slice(at + 2);
  const rows = await db
    .select()
    .from(jobs)
    .where(and(eq(jobs.name, name), sql`${jobs.projectName} || '--' || ${jobs.orgName} = ${place}`))
    .orderBy(desc(jobs.createdAt))
    .limit(50);
  const final = new Set<string>(FINAL_JOB_STATUSES);
  return rows.find((r) => !final.has(r.status)) ?? rows[0] ?? null;
}

/** The pending or running job of that name in the project, if any (live names are unique). */
export async function liveJobNamed(db: Db, place: ProjectPlace, name: string) {
  const [row] = await db
    .select({ id: jobs.id })
    .from(jobs)
    .where(
      and(inPlace(place), eq(jobs.name, name), notInArray(jobs.status, [...FINAL_JOB_STATUSES])),
    );
  return row ?? null;
}

/** The first job carrying `tag` (a tag that names one job, as the bake engine's do). */
export async function jobTagged(db: Db, tag: string) {
  const [row] = await db
    .select()
    .from(jobs)
    .where(sql`${jobs.tags} @> ${JSON.stringify([tag])}::jsonb`)
    .limit(1);
  return row ?? null;
}

export const inPlace = (p: ProjectPlace) =>
  and(eq(jobs.clusterName, p.cluster), eq(jobs.orgName, p.org), eq(jobs.projectName, p.project));

/** When the job's status last changed (its last history entry). */
export async function lastTransitionAt(db: Db, jobId: string): Promise<Date | null> {
  const [last] = await db
    .select({ at: jobStatuses.transitionTime })
    .from(jobStatuses)
    .where(eq(jobStatuses.jobId, jobId))
    .orderBy(desc(jobStatuses.seq))
    .limit(1);
  return last?.at ?? null;
}

export async function historyOf(db: Db, ids: string[]) {
  if (ids.length === 0) return new Map<string, JobStatusRow[]>();
  const rows = await db
    .select()
    .from(jobStatuses)
    .where(inArray(jobStatuses.jobId, ids))
    .orderBy(asc(jobStatuses.jobId), asc(jobStatuses.seq));
  const out = new Map<string, JobStatusRow[]>();
  for (const r of rows) {
    const list = out.get(r.jobId) ?? [];
    list.push(r);
    out.set(r.jobId, list);
  }
  return out;
}

/**
 * Records a transition unless the job already reached a final status (a kill racing an exit must
 * not turn `cancelled` into `failed`). Returns the updated row, or null when nothing changed.
 */
export async function transition(
  db: Db,
  id: string,
  t: Transition,
  extra: Partial<JobInsert> = {},
) {
  return db.transaction(async (tx) => {
    const [current] = await tx.select().from(jobs).where(eq(jobs.id, id)).for('update');
    if (!current || FINAL_JOB_STATUSES.includes(current.status as JobStatus)) return null;
    const sameState =
      current.status === t.status &&
      (current.reason ?? null) === (t.reason ?? null) &&
      (current.statusDescription ?? null) === (t.description ?? null);
    const at = t.at ?? new Date();
    const [row] = await tx
      .update(jobs)
      .set({
        ...extra,
        status: t.status,
        reason: t.reason ?? null,
        statusDescription: t.description ?? null,
        exitCode: t.exitCode ?? current.exitCode,
      })
      .where(eq(jobs.id, id))
      .returning();
    if (!sameState) {
      const [{ next }] = (await tx
        .select({ next: sql<number>`coalesce(max(${jobStatuses.seq}), -1) + 1` })
        .from(jobStatuses)
        .where(eq(jobStatuses.jobId, id))) as [{ next: number }];
      await tx.insert(jobStatuses).values({
        jobId: id,
        seq: Number(next),
        status: t.status,
        reason: t.reason ?? null,
        description: t.description ?? null,
        exitCode: t.exitCode ?? null,
        transitionTime: at,
      });
    }
    return row!;
  });
}

export const updateJob = (db: Db, id: string, values: Partial<JobInsert>) =>
  db.update(jobs).set(values).where(eq(jobs.id, id));

export const unfinishedJobs = (db: Db) =>
  db
    .select()
    .from(jobs)
    .where(notInArray(jobs.status, [...FINAL_JOB_STATUSES]))
    .orderBy(asc(jobs.createdAt));

export interface ListFilter {
  /** Projects whose jobs the caller may read, and single jobs shared with them. */
  readable: { places: ProjectPlace[]; ids: string[]; all: boolean };
  /** The query's own narrowing to a cluster, organization and projects. */
  place: { cluster?: string; org?: string; projects: string[] };
  statuses: JobStatus[];
  name?: string;
  owners: string[];
  tags: string[];
  since?: Date;
  until?: Date;
  q?: string;
  reverse: boolean;
  limit: number;
  after?: JobRow;
  materialized?: boolean;
  logsRemoved?: boolean;
}

const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

/** One page of jobs, oldest first (newest first with `reverse`), as platform-api orders them. */
export async function listJobs(db: Db, f: ListFilter) {
  const scope: SQL[] = [];
  if (!f.readable.all) {
    scope.push(...f.readable.places.map((p) => inPlace(p)!));
    if (f.readable.ids.length > 0) scope.push(inArray(jobs.id, f.readable.ids));
    if (scope.length === 0) return [];
  }
  const where = [
    f.readable.all ? undefined : or(...scope),
    f.place.cluster ? eq(jobs.clusterName, f.place.cluster) : undefined,
    f.place.org ? eq(jobs.orgName, f.place.org) : undefined,
    f.place.projects.length ? inArray(jobs.projectName, f.place.projects) : undefined,
    f.statuses.length ? inArray(jobs.status, f.statuses) : undefined,
    f.name ? eq(jobs.name, f.name) : undefined,
    f.owners.length ? inArray(jobs.owner, f.owners) : undefined,
    ...f.tags.map((t) => sql`${jobs.tags} @> ${JSON.stringify([t])}::jsonb`),
    f.since ? gte(jobs.createdAt, f.since) : undefined,
    f.until ? lte(jobs.createdAt, f.until) : undefined,
    f.q
      ? or(ilike(jobs.id, `%${escapeLike(f.q)}%`), ilike(jobs.name, `%${escapeLike(f.q)}%`))
      : undefined,
    f.materialized === undefined ? undefined : eq(jobs.materialized, f.materialized),
    f.logsRemoved === undefined ? undefined : eq(jobs.logsRemoved, f.logsRemoved),
    f.after
      ? f.reverse
        ? or(
            lt(jobs.createdAt, f.after.createdAt),
            and(eq(jobs.createdAt, f.after.createdAt), lt(jobs.id, f.after.id)),
          )
        : or(
            gt(jobs.createdAt, f.after.createdAt),
            and(eq(jobs.createdAt, f.after.createdAt), gt(jobs.id, f.after.id)),
          )
      : undefined,
  ];
  const order = f.reverse
    ? [desc(jobs.createdAt), desc(jobs.id)]
    : [asc(jobs.createdAt), asc(jobs.id)];
  return db
    .select()
    .from(jobs)
    .where(and(...where))
    .orderBy(...order)
    .limit(f.limit);
}

/** Jobs holding resources now: handed to the runtime and not finished. */
const holding = (cluster?: string) =>
  and(
    eq(jobs.materialized, true),
    notInArray(jobs.status, [...FINAL_JOB_STATUSES]),
    cluster ? eq(jobs.clusterName, cluster) : undefined,
  );

export const activeJobs = (db: Db, cluster?: string) =>
  db.select().from(jobs).where(holding(cluster));

/**
 * How many of an organization's jobs hold resources on a cluster (its `totalRunningJobs` quota
 * counts them), leaving out `except` (the job being admitted).
 */
export async function activeJobCount(db: Db, cluster: string, org: string, except?: string) {
  const [row] = await db
    .select({ used: count() })
    .from(jobs)
    .where(
      and(
        holding(cluster),
        eq(jobs.orgName, org),
        except ? sql`${jobs.id} <> ${except}` : undefined,
      ),
    );
  return Number(row?.used ?? 0);
}
