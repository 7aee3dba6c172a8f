import type { FastifyRequest } from 'fastify';
import { jobUri, type Action } from '@orrery/contract';
import type { Db } from '../../db/client.js';
import { authorized } from '../../http/access.js';
import { readableJobs } from './scope.js';
import { jobById, jobByIdOrName, jobByIngressName, type JobRow } from './store.js';
import { isIngressNameKey } from './wire.js';

/**
 * The job a path names, if the caller may `action` it; 404 when they may not read it. A name is
 * looked up among the projects the caller can read, newest job first, as `apolo` resolves it.
 */
export async function jobFor(
  db: Db,
  request: FastifyRequest,
  idOrName: string,
  action: Action,
): Promise<JobRow> {
  const found =
    (await jobById(db, idOrName)) ??
    (await jobByIdOrName(db, idOrName, (await readableJobs(db, await request.grants())).places));
  const uriOf = (j: JobRow) => jobUri(j.clusterName, j.orgName, j.projectName, j.id);
  return authorized(request, found, uriOf, action, `Job ${idOrName} not found`);
}

/** The job a job host's key names: its id, or the name key of its address by name. */
export const jobOfKey = (db: Db, key: string) =>
  isIngressNameKey(key) ? jobByIngressName(db, key) : jobById(db, key);

/** The job as it is now, or as it was when it is gone. */
export const jobAgain = async (db: Db, j: JobRow) => (await jobById(db, j.id)) ?? j;
