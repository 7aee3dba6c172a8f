import { jobUri, projectUri, DEFAULT_CLUSTER } from '@orrery/contract';
import { allows } from '../../../auth/permissions.js';
import type { Db } from '../../../db/client.js';
import { notFound } from '../../../http/errors.js';
import { instanceById, type InstanceRow } from '../../apps/store.js';
import { readableJobs } from '../../jobs/scope.js';
import { jobById, jobByIdOrName, type JobRow, type ProjectPlace } from '../../jobs/store.js';
import type { Asker, Place } from '../types.js';
import { appNamed } from './store.js';

const jobPage = (id: string) => `/jobs/${encodeURIComponent(id)}`;

/** The console pages a fact or plan links to (web: AppRoutes.tsx and each feature's routes). */
export const consoleUrl = {
  job: jobPage,
  /** The job page's Logs tab (web: features/jobs/job/JobPage.tsx, JOB_TABS). */
  jobLogs: (id: string) => `${jobPage(id)}/logs`,
  app: (id: string) => `/apps/instances/${encodeURIComponent(id)}`,
  disks: '/disks',
  /** A bake's graph (web: features/flows/FlowsPage.tsx). */
  bake: (flowId: string, flowName: string, bakeId: string) =>
    `/flows/${encodeURIComponent(flowId)}/${encodeURIComponent(flowName)}/bakes/${encodeURIComponent(bakeId)}`,
  installedApps: '/apps/installed',
  credits: '/org-billing',
  /**
   * The job form: its preset picker labels each preset with its credits per hour
   * (web: forms/widgets/PresetField.tsx presetLabel), and every user the presets fact answers
   * may open it. The cluster settings' General tab lists them too, but it is shown only to the
   * cluster's and the organization's managers (web: features/people/SettingsPages.tsx).
   */
  presets: '/jobs/new',
};

/** The project of a job or app row. */
export const placeOfRow = (r: { clusterName: string; orgName: string; projectName: string }) =>
  ({ cluster: r.clusterName, org: r.orgName, project: r.projectName }) satisfies Place;

/** The project the user has open in the console, when the question came with one. */
export function placeOf(asker: Asker): ProjectPlace | null {
  const c = asker.context;
  return c.org && c.project
    ? { cluster: c.cluster ?? DEFAULT_CLUSTER, org: c.org, project: c.project }
    : null;
}

/**
 * A job by id, or by name in the open project (else in the projects the user can read), that
 * the user may read; otherwise the API's own "not found", so that a job of someone else's is
 * indistinguishable from one that does not exist.
 */
export async function readableJob(db: Db, asker: Asker, idOrName: string): Promise<JobRow> {
  const here = placeOf(asker);
  const places = here ? [here] : (await readableJobs(db, asker.grants)).places;
  const found = (await jobById(db, idOrName)) ?? (await jobByIdOrName(db, idOrName, places));
  if (
    !found ||
    !allows(
      asker.grants,
      jobUri(found.clusterName, found.orgName, found.projectName, found.id),
      'read',
    )
  )
    throw notFound(`Job ${idOrName} not found`);
  return found;
}

/** An installed app by id, or by name in the open project, that the user may read. */
export async function readableApp(db: Db, asker: Asker, idOrName: string): Promise<InstanceRow> {
  const here = placeOf(asker);
  let row = await instanceById(db, idOrName);
  if (!row && here) {
    row = await appNamed(db, here, idOrName);
  }
  if (
    !row ||
    !allows(asker.grants, projectUri(row.clusterName, row.orgName, row.projectName), 'read')
  )
    throw notFound(`App instance ${idOrName} not found`);
  return row;
}
