import type { z } from 'zod';
import { flowJobsTag, type JobListQuery } from '@orrery/contract';
import type { Grant } from '../../auth/permissions.js';
import type { Db } from '../../db/client.js';
import type { JobQueue } from './queue.js';
import { clusterQueue } from './queue-view.js';
import { readableJobs } from './scope.js';
import { historyOf, jobById, listJobs, unfinishedJobs } from './store.js';

/**
 * One page of the jobs a caller may read, narrowed by the list's query, with each job's status
 * history for the wire.
 */
export async function jobsPage(db: Db, grants: Grant[], q: z.infer<typeof JobListQuery>) {
  const readable = await readableJobs(db, grants);
  const after = q.cursor ? await jobById(db, q.cursor) : undefined;
  const rows = await listJobs(db, {
    readable,
    place: { cluster: q.cluster_name, org: q.org_name, projects: q.project_name },
    statuses: q.status,
    name: q.name,
    owners: q.owner,
    tags: q.flow_name ? [...q.tag, flowJobsTag(q.flow_name)] : q.tag,
    since: q.since ? new Date(q.since) : undefined,
    until: q.until ? new Date(q.until) : undefined,
    q: q.q,
    reverse: q.reverse ?? false,
    limit: q.limit ?? 10_000,
    after: after ?? undefined,
    materialized: q.materialized,
    logsRemoved: q.logs_removed,
  });
  const history = await historyOf(
    db,
    rows.map((r) => r.id),
  );
  return { rows, history };
}

/** A cluster's queue as its managers see it: every unfinished job there, in the order it waits. */
export async function clusterQueueNow(db: Db, queue: JobQueue, cluster: string) {
  return clusterQueue(queue, cluster, await unfinishedJobs(db));
}
