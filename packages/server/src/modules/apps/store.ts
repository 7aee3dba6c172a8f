import { and, asc, count, desc, eq, inArray, ne, sql } from 'drizzle-orm';
import type { AppEventWire, AppState, ResourcePlace } from '@orrery/contract';
import type { Db } from '../../db/client.js';
import { jobs } from '../../db/schema.js';
import { appEvents, appInstances, appLinks, appRevisions } from './tables.js';

export type InstanceRow = typeof appInstances.$inferSelect;
export type RevisionRow = typeof appRevisions.$inferSelect;
export type EventRow = typeof appEvents.$inferSelect;

/** Where the resource lives (the contract's one shape for it). */
export type Place = ResourcePlace;

export const placeKey = (p: Place) => `${p.cluster}/${p.org}/${p.project}`;
export const placeOfRow = (r: InstanceRow): Place => ({
  cluster: r.clusterName,
  org: r.orgName,
  project: r.projectName,
});

/** The tags an instance's jobs carry: the instance, the revision they run, and their role. */
export const INSTANCE_TAG_PREFIX = 'instance_id:';
export const instanceTag = (id: string) => `${INSTANCE_TAG_PREFIX}${id}`;

/** An app instance's jobs are charged under `apps`, named by the instance (Apolo's rows). */
export async function chargeSubjectOf(db: Db, job: { tags: string[] }) {
  const prefix = instanceTag('');
  const id = job.tags.find((t) => t.startsWith(prefix))?.slice(prefix.length);
  const [instance] = id
    ? await db.select({ name: appInstances.name }).from(appInstances).where(eq(appInstances.id, id))
    : [];
  return instance ? { category: 'apps' as const, resourceId: instance.name } : null;
}
export const revisionTag = (n: number) => `app-revision:${n}`;
export const roleTag = (role: string) => `app-role:${role}`;

export async function instanceById(db: Db, id: string) {
  // Not a uuid: no such instance (and no database error for it).
  if (!/^[0-9a-f-]{36}$/i.test(id)) return undefined;
  const [row] = await db.select().from(appInstances).where(eq(appInstances.id, id));
  return row;
}

const inPlace = (p: Place) =>
  and(
    eq(appInstances.clusterName, p.cluster),
    eq(appInstances.orgName, p.org),
    eq(appInstances.projectName, p.project),
  );

export async function listInstances(
  db: Db,
  p: Place,
  q: { states?: AppState[]; page: number; size: number },
) {
  const where = and(
    inPlace(p),
    q.states?.length ? inArray(appInstances.state, q.states) : undefined,
  );
  const [rows, [total]] = await Promise.all([
    db
      .select()
      .from(appInstances)
      .where(where)
      .orderBy(desc(appInstances.createdAt), desc(appInstances.id))
      .limit(q.size)
      .offset((q.page - 1) * q.size),
    db.select({ n: count() }).from(appInstances).where(where),
  ]);
  return { rows, total: total?.n ?? 0 };
}

/** Names taken among the project's instances that are not uninstalled. */
export async function namesInUse(db: Db, p: Place) {
  const rows = await db
    .select({ name: appInstances.name })
    .from(appInstances)
    .where(and(inPlace(p), ne(appInstances.state, 'uninstalled')));
  return new Set(rows.map((r) => r.name));
}

/** Instances the service follows: everything not yet uninstalled. */
export const liveInstances = (db: Db) =>
  db.select().from(appInstances).where(ne(appInstances.state, 'uninstalled'));

export async function updateInstance(db: Db, id: string, values: Partial<InstanceRow>) {
  const [row] = await db
    .update(appInstances)
    .set({ ...values, updatedAt: new Date() })
    .where(eq(appInstances.id, id))
    .returning();
  return row;
}

/**
 * A change the watcher derived from what it read: applied only if the instance is still in that
 * state and revision (a configure or uninstall in between wins).
 */
export async function transitionInstance(
  db: Db,
  seen: Pick<InstanceRow, 'id' | 'state' | 'revision'>,
  values: Partial<InstanceRow>,
) {
  const [row] = await db
    .update(appInstances)
    .set({ ...values, updatedAt: new Date() })
    .where(
      and(
        eq(appInstances.id, seen.id),
        eq(appInstances.state, seen.state),
        eq(appInstances.revision, seen.revision),
      ),
    )
    .returning();
  return row;
}

export async function addEvent(
  db: Db,
  instanceId: string,
  e: Pick<AppEventWire, 'state' | 'reason' | 'message'> & { resources?: AppEventWire['resources'] },
) {
  await db.insert(appEvents).values({
    instanceId,
    state: e.state,
    reason: e.reason,
    message: e.message,
    resources: e.resources ?? [],
  });
}

export async function eventsOf(db: Db, instanceId: string, page: number, size: number) {
  const where = eq(appEvents.instanceId, instanceId);
  const [rows, [total]] = await Promise.all([
    db
      .select()
      .from(appEvents)
      .where(where)
      .orderBy(desc(appEvents.seq))
      .limit(size)
      .offset((page - 1) * size),
    db.select({ n: count() }).from(appEvents).where(where),
  ]);
  return { rows, total: total?.n ?? 0 };
}

export const revisionsOf = (db: Db, instanceId: string) =>
  db
    .select()
    .from(appRevisions)
    .where(eq(appRevisions.instanceId, instanceId))
    .orderBy(asc(appRevisions.number));

export async function revision(db: Db, instanceId: string, n: number) {
  const [row] = await db
    .select()
    .from(appRevisions)
    .where(and(eq(appRevisions.instanceId, instanceId), eq(appRevisions.number, n)));
  return row;
}

/** The jobs of an instance's revision, oldest first. */
export const jobsOfRevision = (db: Db, instanceId: string, n: number) =>
  db
    .select()
    .from(jobs)
    .where(sql`${jobs.tags} @> ${JSON.stringify([instanceTag(instanceId), revisionTag(n)])}::jsonb`)
    .orderBy(asc(jobs.createdAt));

type JobRowOf = typeof jobs.$inferSelect;

/**
 * The jobs of each instance, all of them and those of its current revision, for a page of
 * instances in one query (a list of 100 instances would otherwise cost a query per instance).
 */
export async function instanceJobsOf(db: Db, rows: { id: string; revision: number }[]) {
  const current = new Map<string, JobRowOf[]>(rows.map((r) => [r.id, []]));
  const all = new Map<string, JobRowOf[]>(rows.map((r) => [r.id, []]));
  if (rows.length === 0) return { current, all };
  const wanted = new Map(rows.map((r) => [instanceTag(r.id), r]));
  const found = await db
    .select()
    .from(jobs)
    .where(sql`${jobs.tags} ?| ${`{${[...wanted.keys()].join(',')}}`}::text[]`)
    .orderBy(asc(jobs.createdAt));
  for (const j of found) {
    for (const t of j.tags) {
      const r = wanted.get(t);
      if (!r) continue;
      all.get(r.id)!.push(j);
      if (j.tags.includes(revisionTag(r.revision))) current.get(r.id)!.push(j);
    }
  }
  return { current, all };
}

export const currentJobsOf = async (db: Db, rows: { id: string; revision: number }[]) =>
  (await instanceJobsOf(db, rows)).current;

export async function currentRevisionsOf(db: Db, rows: { id: string; revision: number }[]) {
  if (rows.length === 0) return new Map<string, RevisionRow>();
  const found = await db
    .select()
    .from(appRevisions)
    .where(
      inArray(
        appRevisions.instanceId,
        rows.map((r) => r.id),
      ),
    );
  const current = new Set(rows.map((r) => `${r.id}/${r.revision}`));
  return new Map(
    found.filter((f) => current.has(`${f.instanceId}/${f.number}`)).map((f) => [f.instanceId, f]),
  );
}

/** Every job an instance ever ran. */
export const jobsOfInstance = (db: Db, instanceId: string) =>
  db
    .select()
    .from(jobs)
    .where(sql`${jobs.tags} @> ${JSON.stringify([instanceTag(instanceId)])}::jsonb`)
    .orderBy(asc(jobs.createdAt));

/** Instances (not uninstalled) whose input refers to one of `ids`. */
export async function usersOf(db: Db, ids: string[]) {
  if (ids.length === 0) return [];
  return db
    .selectDistinct({
      targetId: appLinks.targetId,
      id: appInstances.id,
      displayName: appInstances.displayName,
    })
    .from(appLinks)
    .innerJoin(appInstances, eq(appInstances.id, appLinks.instanceId))
    .where(and(inArray(appLinks.targetId, ids), ne(appInstances.state, 'uninstalled')));
}

export async function replaceLinks(
  db: Db,
  instanceId: string,
  links: { field: string; targetId: string; path: string }[],
) {
  await db.delete(appLinks).where(eq(appLinks.instanceId, instanceId));
  if (links.length) await db.insert(appLinks).values(links.map((l) => ({ instanceId, ...l })));
}

export async function insertInstance(
  db: Db,
  values: typeof appInstances.$inferInsert,
  rev: Omit<typeof appRevisions.$inferInsert, 'instanceId' | 'number'>,
) {
  return db.transaction(async (tx) => {
    const [row] = await tx.insert(appInstances).values(values).returning();
    await tx.insert(appRevisions).values({ ...rev, instanceId: row!.id, number: 1 });
    await tx.insert(appEvents).values({
      instanceId: row!.id,
      state: 'queued',
      reason: 'Installing',
      message: `Installing ${values.templateName} ${values.templateVersion}`,
    });
    return row!;
  });
}

/** A new revision becomes current; the previous one ends now. */
export async function addRevision(
  db: Db,
  instanceId: string,
  n: number,
  rev: Omit<typeof appRevisions.$inferInsert, 'instanceId' | 'number'>,
) {
  await db.transaction(async (tx) => {
    await tx
      .update(appRevisions)
      .set({ endAt: new Date() })
      .where(and(eq(appRevisions.instanceId, instanceId), sql`${appRevisions.endAt} is null`));
    await tx.insert(appRevisions).values({ ...rev, instanceId, number: n });
    await tx
      .update(appInstances)
      .set({ revision: n, templateVersion: rev.templateVersion, updatedAt: new Date() })
      .where(eq(appInstances.id, instanceId));
  });
}

export async function deleteInstance(db: Db, id: string) {
  await db.delete(appInstances).where(eq(appInstances.id, id));
}

export async function setRevisionHealth(
  db: Db,
  instanceId: string,
  n: number,
  health: RevisionRow['health'],
) {
  await db
    .update(appRevisions)
    .set({ health })
    .where(and(eq(appRevisions.instanceId, instanceId), eq(appRevisions.number, n)));
}
