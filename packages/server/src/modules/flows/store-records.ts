import { and, asc, eq } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { flowBakeImages, flowBakes, flowLiveJobs, flowProjects } from './tables.js';
import { flowId, type BakeImageRow, type LiveJobRow } from './store.js';

/**
 * Live jobs and bake images: records only the flow API serves, for the `apolo-flow` client
 * (Orrery's engine runs no live jobs and builds no images).
 */

// ---- live jobs ----

export async function liveJobsOf(db: Db, projectId: string) {
  return db
    .select()
    .from(flowLiveJobs)
    .where(eq(flowLiveJobs.projectId, projectId))
    .orderBy(asc(flowLiveJobs.yamlId));
}

export async function liveJobById(db: Db, id: string) {
  const [row] = await db.select().from(flowLiveJobs).where(eq(flowLiveJobs.id, id));
  return row;
}

export async function liveJobByYamlId(db: Db, projectId: string, yamlId: string) {
  const [row] = await db
    .select()
    .from(flowLiveJobs)
    .where(and(eq(flowLiveJobs.projectId, projectId), eq(flowLiveJobs.yamlId, yamlId)));
  return row;
}

export interface LiveJobValues {
  projectId: string;
  yamlId: string;
  multi: boolean;
  tags: string[];
  rawId?: string | null;
}

export async function insertLiveJob(db: Db, values: LiveJobValues): Promise<LiveJobRow> {
  const [row] = await db
    .insert(flowLiveJobs)
    .values({ ...values, id: flowId('live-job') })
    .returning();
  return row!;
}

/** `live_jobs/replace`: creates the record of (project, yaml id) or replaces what it holds. */
export async function upsertLiveJob(db: Db, values: LiveJobValues) {
  const [row] = await db
    .insert(flowLiveJobs)
    .values({ ...values, id: flowId('live-job') })
    .onConflictDoUpdate({
      target: [flowLiveJobs.projectId, flowLiveJobs.yamlId],
      set: { multi: values.multi, tags: values.tags, rawId: values.rawId ?? null },
    })
    .returning();
  return row!;
}

// ---- bake images ----

export async function bakeImagesOf(db: Db, bakeId: string) {
  return db
    .select()
    .from(flowBakeImages)
    .where(eq(flowBakeImages.bakeId, bakeId))
    .orderBy(asc(flowBakeImages.ref));
}

export async function bakeImageByRef(db: Db, bakeId: string, ref: string) {
  const [row] = await db
    .select()
    .from(flowBakeImages)
    .where(and(eq(flowBakeImages.bakeId, bakeId), eq(flowBakeImages.ref, ref)));
  return row;
}

export async function bakeImageWithProject(db: Db, id: string) {
  const [row] = await db
    .select({ image: flowBakeImages, project: flowProjects })
    .from(flowBakeImages)
    .innerJoin(flowBakes, eq(flowBakes.id, flowBakeImages.bakeId))
    .innerJoin(flowProjects, eq(flowProjects.id, flowBakes.projectId))
    .where(eq(flowBakeImages.id, id));
  return row;
}

export async function insertBakeImage(
  db: Db,
  values: Omit<typeof flowBakeImages.$inferInsert, 'id'>,
): Promise<BakeImageRow> {
  const [row] = await db
    .insert(flowBakeImages)
    .values({ ...values, id: flowId('bake-image') })
    .returning();
  return row!;
}

export async function patchBakeImage(
  db: Db,
  id: string,
  change: { status?: string; builderJobId?: string | null },
) {
  const [row] = await db
    .update(flowBakeImages)
    .set(change)
    .where(eq(flowBakeImages.id, id))
    .returning();
  return row;
}
