import { isFinalJobStatus, jobUri, type JobStatus, type JobWire } from '@orrery/contract';
import type { Config } from '../../config.js';
import type { AppContext } from '../../context.js';
import { jobUrl } from './ingress-host.js';
import type { JobsService } from './service.js';
import { historyOf, type JobRow, type JobStatusRow } from './store.js';
import { containerOf } from './container.js';

const iso = (d: Date) => d.toISOString();
const opt = <T>(v: T | null | undefined) => (v === null ? undefined : v);

/**
 * The key of a named job's ingress host: `{name}--{project}--{org}`, which follows the name from
 * one run to the next (the wire's `http_url_named`).
 */
export const ingressNameKey = (j: Pick<JobRow, 'name' | 'projectName' | 'orgName'>) =>
  j.name ? `${j.name}--${j.projectName}--${j.orgName}` : null;

/** Whether an ingress key is a name key rather than a job id (ids have single hyphens only). */
export const isIngressNameKey = (key: string) => key.includes('--');

/**
 * What a user opens in an interactive job (`terminal`, `notebook`, `IDE`), or null for a plain
 * web page. Set by the apps service for the jobs of interactive apps (not part of the jobs API);
 * opening one through the ingress needs write access to the job, not read (docs/apps.md).
 */
export const interactiveOf = (j: JobRow): string | null => {
  const v = (containerOf(j).http as { interactive?: unknown } | undefined)?.interactive;
  return typeof v === 'string' && v ? v : null;
};

/** The job JSON of platform-api from a record and its transitions. */
export function jobWire(
  j: JobRow,
  statuses: JobStatusRow[],
  opts: {
    config: Pick<Config, 'publicUrl' | 'ingressDomain'>;
    warning?: string;
    /** Its place in the queue while it waits (queue.ts). */
    position?: number;
  },
): JobWire {
  const status = j.status as JobStatus;
  const { owned_volumes: _owned, workers, ...container } = containerOf(j);
  const end = j.finishedAt ?? new Date();
  const runTime = j.startedAt ? Math.max(0, (end.getTime() - j.startedAt.getTime()) / 1000) : 0;
  const http = container.http ? jobUrl(opts.config, j.id) : undefined;
  const nameKey = ingressNameKey(j);
  const httpNamed = container.http && nameKey ? jobUrl(opts.config, nameKey) : undefined;
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
    nodes: workers ?? 1,
    runtime_warning: opts.warning,
    queue_position: j.materialized ? undefined : opts.position,
  };
}

/** The job JSON of each row, as the jobs API answers it (the history read unless `known`). */
export async function jobWires(
  ctx: Pick<AppContext, 'db' | 'config'>,
  jobs: Pick<JobsService, 'driver' | 'queue'>,
  rows: JobRow[],
  known?: Awaited<ReturnType<typeof historyOf>>,
) {
  const history =
    known ??
    (await historyOf(
      ctx.db,
      rows.map((r) => r.id),
    ));
  return rows.map((r) =>
    jobWire(r, history.get(r.id) ?? [], {
      config: ctx.config,
      warning: r.runtime === jobs.driver.name ? jobs.driver.warning : undefined,
      position: jobs.queue.position(r.id),
    }),
  );
}
