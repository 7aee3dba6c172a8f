import { JOB_STATUS_FILTERS, type JobStatus } from '@orrery/contract';
import { openNeedsWrite, type Job } from '../../api/jobs';
import { ALLOWED, type Can } from '../../api/permissions';
import { JOBS_TEXTS } from './texts';

/** Pending and suspended warn; running and succeeded are fine; the rest failed. */
export const STATUS_COLOR: Record<JobStatus, string> = {
  pending: 'yellow',
  suspended: 'yellow',
  running: 'green',
  succeeded: 'green',
  failed: 'red',
  cancelled: 'red',
};

export type StatusFilter = (typeof JOB_STATUS_FILTERS)[number];
/** The list shows running jobs unless told otherwise. */
export const DEFAULT_STATUS_FILTER: StatusFilter = 'running';

export const parseStatusFilter = (value: string | null): StatusFilter =>
  (JOB_STATUS_FILTERS as readonly string[]).includes(value ?? '')
    ? (value as StatusFilter)
    : DEFAULT_STATUS_FILTER;

export const jobLabel = (job: Pick<Job, 'id' | 'name'>) => job.name ?? job.id;

const active = (s: JobStatus) => s === 'pending' || s === 'running';

/** An action's state: enabled, or disabled with the reason shown in its tooltip. */
export interface ActionState {
  enabled: boolean;
  why: string | null;
}
const state = (enabled: boolean, why: string): ActionState => ({
  enabled,
  why: enabled ? null : why,
});

/**
 * Kill only when pending or running (lists also kill suspended jobs); Save
 * image only when running; Rerun only for the owner of a job that is neither pending nor
 * running; Open needs an HTTP URL and a job that was not cancelled and did not fail.
 */
export function jobActions(job: Job, username: string, where: 'list' | 'page' = 'page') {
  const s = job.status;
  const why = JOBS_TEXTS.why;
  return {
    kill: state(active(s) || (where === 'list' && s === 'suspended'), why.killWhenActive),
    // The process runtime runs a process tree on the host: no container whose image could be kept.
    saveImage:
      job.runtime === 'process'
        ? state(false, why.saveNeedsContainer)
        : state(s === 'running', why.saveWhenRunning),
    rerun:
      job.owner !== username
        ? state(false, why.onlyOwnerReruns)
        : state(!active(s), why.rerunWhileActive),
    open: !job.httpUrl
      ? state(false, why.noUrl)
      : state(s !== 'cancelled' && s !== 'failed', why.openEnded),
  };
}

/**
 * Who may Open a job: anyone who sees it, for a web page; for an interactive app's job (a
 * terminal, a notebook, an IDE) only those with write access to it, as the server checks.
 */
export function openCan(job: Job, write: Can): Can {
  const kind = job.container.http?.interactive;
  if (!kind) return ALLOWED;
  if (write.allowed || write.pending) return write;
  return { allowed: false, reason: openNeedsWrite(kind), pending: false };
}

/** Live monitoring connects only while running, or when the status is unknown. */
export const canWatchLoad = (status: JobStatus | undefined | null) =>
  !status || status === 'running';

/** Percentages are usage × 100 / limit, rounded. */
export const percentOf = (usage: number, limit: number) =>
  limit > 0 ? Math.round((usage * 100) / limit) : 0;

/** Where a job can leave results: its writable storage and disk mounts (its output paths). */
export function jobOutputs(job: Job) {
  const c = job.container;
  return [
    ...c.volumes
      .filter((v) => !v.readOnly)
      .map((v) => ({ path: v.dstPath, uri: v.srcStorageUri, kind: 'storage' as const })),
    ...c.diskVolumes
      .filter((v) => !v.readOnly)
      .map((v) => ({ path: v.dstPath, uri: v.srcDiskUri, kind: 'disk' as const })),
  ];
}
