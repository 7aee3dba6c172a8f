import type { AppEventWire, AppInstanceWire, AppState } from '@orrery/contract';
import type { JobRow } from '../jobs/store.js';
import { interactiveOf } from '../jobs/wire.js';
import type { AppEndpoint } from './runner.js';
import type { AppsService } from './service.js';
import { homeOf } from './service.js';
import { idleMinutesOf } from './watcher.js';
import {
  instanceJobsOf,
  currentRevisionsOf,
  usersOf,
  type EventRow,
  type InstanceRow,
  type RevisionRow,
} from './store.js';

/** ISO 8601 with an explicit offset, as the CLI parses it (`…+00:00`). */
export const isoTime = (d: Date) => d.toISOString().replace('Z', '+00:00');

const STEP_OF = (row: InstanceRow): AppInstanceWire['startup'] =>
  row.step && row.stepSince && ['queued', 'progressing'].includes(row.state)
    ? {
        step: row.step as NonNullable<AppInstanceWire['startup']>['step'],
        since: isoTime(row.stepSince),
        message: row.stepMessage,
      }
    : null;

/** The App object (docs/apps.md) of each row, with Orrery's additions. */
export async function instancesWire(apps: AppsService, rows: InstanceRow[]) {
  const [users, { current: jobsOf, all: everJobsOf }, revisions] = await Promise.all([
    usersOf(
      apps.db,
      rows.map((r) => r.id),
    ),
    instanceJobsOf(apps.db, rows),
    currentRevisionsOf(apps.db, rows),
  ]);
  return Promise.all(
    rows.map(async (row): Promise<AppInstanceWire> => {
      const jobs = jobsOf.get(row.id) ?? [];
      const rev = revisions.get(row.id);
      const endpoints =
        row.state === 'uninstalled'
          ? ({} as Record<string, AppEndpoint>)
          : await apps.endpoints(row, jobs);
      return {
        id: row.id,
        name: row.name,
        display_name: row.displayName,
        template_name: row.templateName,
        template_version: row.templateVersion,
        project_name: row.projectName,
        org_name: row.orgName,
        cluster_name: row.clusterName,
        namespace: `${row.orgName}--${row.projectName}`,
        state: row.state as AppState,
        creator: row.creator,
        created_at: isoTime(row.createdAt),
        updated_at: isoTime(row.updatedAt),
        endpoints: Object.values(endpoints).map(
          (e) =>
            `${e.external.protocol}://${e.external.host}:${e.external.port}${e.external.basePath}`,
        ),
        startup: STEP_OF(row),
        state_message: ['errored', 'degraded'].includes(row.state) ? row.stepMessage : null,
        idle: idleOf(row, rev),
        used_by: users
          .filter((u) => u.targetId === row.id && u.id !== row.id)
          .map((u) => ({ id: u.id, display_name: u.displayName })),
        job_ids: jobs.map((j) => j.id),
        interactive: jobs.map(interactiveOf).find(Boolean) ?? null,
        home: homeOf(row),
        ...creditsOf(jobs, everJobsOf.get(row.id) ?? []),
      };
    }),
  );
}

/**
 * What the instance costs: per hour, the jobs it runs now (pending or running); so far, every job
 * it ever ran, through all its revisions.
 */
function creditsOf(current: JobRow[], ever: JobRow[]) {
  const sum = (xs: JobRow[], f: (j: JobRow) => string) =>
    xs.reduce((n, j) => n + Number(f(j)), 0).toFixed(4);
  return {
    credits_per_hour: sum(
      current.filter((j) => j.status === 'pending' || j.status === 'running'),
      (j) => j.pricePerHour,
    ),
    credits_so_far: sum(ever, (j) => j.totalPrice),
  };
}

/** The countdown of idle shutdown while the instance runs with a timeout. */
function idleOf(row: InstanceRow, rev: RevisionRow | undefined): AppInstanceWire['idle'] {
  const minutes = idleMinutesOf(rev?.resolved);
  if (!minutes || row.state !== 'healthy' || !row.lastActivityAt) return null;
  const left = minutes * 60 - (Date.now() - row.lastActivityAt.getTime()) / 1000;
  return { timeout_minutes: minutes, seconds_left: Math.max(0, Math.round(left)) };
}

export const eventWire = (e: EventRow): AppEventWire => ({
  created_at: isoTime(e.createdAt),
  state: e.state as AppState,
  reason: e.reason,
  message: e.message,
  resources: e.resources,
});

export const revisionWire = (r: RevisionRow) => ({
  revision_number: r.number,
  creator: r.creator,
  comment: r.comment,
  created_at: isoTime(r.createdAt),
  end_at: r.endAt ? isoTime(r.endAt) : null,
});
