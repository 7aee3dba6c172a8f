import { isFinalJobStatus, jobUri, type JobStatus, type JobWire } from '@orrery/contract';
import { containerOf, type JobRow, type JobStatusRow } from './store.js';

const iso = (d: Date) => d.toISOString();
const opt = <T>(v: T | null | undefined) => (v === null ? undefined : v);

/** Where a job's HTTP port is reached through the server's ingress. */
export const ingressPath = (id: string) => `/ingress/${id}/`;

/**
 * The key of a named job's ingress: `{name}--{project}--{org}`, which follows the name from one
 * run to the next (apolo-wire §2 `http_url_named`).
 */
export const ingressNameKey = (j: Pick<JobRow, 'name' | 'projectName' | 'orgName'>) =>
  j.name ? `${j.name}--${j.projectName}--${j.orgName}` : null;

/** Whether an ingress key is a name key rather than a job id (ids have single hyphens only). */
export const isIngressNameKey = (key: string) => key.includes('--');

/** The path of a job's ingress as the browser sees it: under the public URL's own path, if any. */
export const publicIngressPath = (id: string, publicUrl: string) =>
  `${new URL(publicUrl).pathname.replace(/\/$/, '')}${ingressPath(id)}`;

/**
 * Whether the job receives its ingress path in front of each request. Set by app runners only
 * (not part of the jobs API): for apps that serve under a base URL and build absolute links
 * from it (JupyterLab), which the stripped path would break.
 */
export const forwardsPrefix = (j: JobRow) =>
  (containerOf(j).http as { forward_prefix?: boolean } | undefined)?.forward_prefix === true;

/**
 * The path a job receives for `rest` (what follows its ingress path, starting with `/`): as it
 * is, or after the public ingress path for a job that asks for it. The ingress, the apps'
 * health checks and their activity probes all reach the job through this.
 */
export const pathForJob = (j: JobRow, publicUrl: string, rest: string) =>
  forwardsPrefix(j) ? `${publicIngressPath(j.id, publicUrl).replace(/\/$/, '')}${rest}` : rest;

/** The job JSON of platform-api (apolo-wire §2) from a record and its transitions. */
export function jobWire(
  j: JobRow,
  statuses: JobStatusRow[],
  opts: { publicUrl: string; warning?: string },
): JobWire {
  const status = j.status as JobStatus;
  const { owned_volumes: _owned, ...container } = containerOf(j);
  const end = j.finishedAt ?? new Date();
  const runTime = j.startedAt ? Math.max(0, (end.getTime() - j.startedAt.getTime()) / 1000) : 0;
  const http = container.http ? `${opts.publicUrl}${ingressPath(j.id)}` : undefined;
  const nameKey = ingressNameKey(j);
  const httpNamed =
    container.http && nameKey ? `${opts.publicUrl}${ingressPath(nameKey)}` : undefined;
  return {
    id: j.id,
    owner: j.owner,
    cluster_name: j.clusterName,
    org_name: j.orgName,
    project_name: j.projectName,
    uri: jobUri(j.clusterName, j.orgName, j.projectName, j.id),
    namespace: `${j.orgName}--${j.projectName}`,
    status,
    history: {
      status,
      reason: j.reason,
      description: j.statusDescription,
      created_at: iso(j.createdAt),
      // The CLI asserts started_at while running and finished_at once finished.
      started_at: j.startedAt ? iso(j.startedAt) : undefined,
      finished_at: isFinalJobStatus(status) ? iso(j.finishedAt ?? j.createdAt) : undefined,
      run_time_seconds: Math.round(runTime * 1000) / 1000,
      restarts: j.restarts,
      exit_code: opt(j.exitCode),
    },
    statuses: statuses.map((s) => ({
      status: s.status as JobStatus,
      transition_time: iso(s.transitionTime),
      reason: s.reason,
      description: s.description,
      exit_code: opt(s.exitCode),
    })),
    container,
    scheduler_enabled: j.schedulerEnabled,
    pass_config: j.passConfig,
    preemptible_node: j.preemptible,
    is_preemptible: j.preemptible,
    is_preemptible_node_required: false,
    privileged: j.privileged,
    materialized: j.materialized,
    being_dropped: false,
    logs_removed: j.logsRemoved,
    restart_policy: j.restartPolicy as JobWire['restart_policy'],
    priority: j.priority as JobWire['priority'],
    total_price_credits: j.totalPrice,
    price_credits_per_hour: j.pricePerHour,
    name: opt(j.name),
    preset_name: opt(j.presetName),
    description: opt(j.description),
    tags: j.tags,
    schedule_timeout: opt(j.scheduleTimeout),
    max_run_time_minutes: opt(j.maxRunTimeMinutes),
    energy_schedule_name: opt(j.energyScheduleName),
    http_url: http,
    http_url_named: httpNamed,
    internal_hostname: container.http ? `${j.id}.${j.orgName}--${j.projectName}` : undefined,
    runtime: j.runtime,
    runtime_warning: opts.warning,
  };
}
