import { randomUUID } from 'node:crypto';
import {
  DEFAULT_MAX_RUN_TIME_MINUTES,
  JOB_TEXTS,
  type JobContainer,
  type JobCreate,
  type JobCreateFromPreset,
  DEFAULT_CLUSTER,
  DECIMAL_MAX,
} from '@orrery/contract';
import type { Grant } from '../../auth/permissions.js';
import type { Principal } from '../../auth/principal.js';
import type { AppContext } from '../../context.js';
import type { RuntimeDriver } from '../../runtime/driver.js';
import { HttpError, conflict, invalid, notFound } from '../../http/errors.js';
import { loadClusters, type PresetRow } from '../clusters/store.js';
import { projectExists } from '../projects/store.js';
import { creditsLeft, jobsQuota } from './accounting.js';
import { presetGpu, resourcesGpu, resourcesOf } from './resources.js';
import { liveJobNamed, type JobInsert, type JobRow, type ProjectPlace } from './store.js';
import { containerOf, type StoredContainer } from './container.js';
import { interactiveOf } from './wire.js';
import { checkVolumeAccess, diskIdsOf, normalizeUris } from './volumes.js';

/** A job to admit, with what only the server sets (no route does): for the apps' runners. */
export type NewJob = (
  { kind: 'preset'; body: JobCreateFromPreset } | { kind: 'container'; body: JobCreate }
) & {
  /**
   * Dst paths of the body's storage volumes the job's uid owns, for an app whose server must
   * own its data (driver.ts JobMount.owned).
   */
  ownedVolumes?: string[];
  /** What a user opens in the job, for an interactive app's job (wire.ts `interactiveOf`). */
  interactive?: string;
};

/** The preset that prices a job and, with `?from_preset`, sizes it. */
function presetAndResources(presets: PresetRow[], req: NewJob) {
  if (req.kind === 'preset') {
    const name = req.body.preset_name;
    const preset = name ? presets.find((p) => p.name === name) : presets[0];
    if (!preset) throw invalid('preset_name', `Preset ${name ?? ''} not found`.trim());
    const resources = resourcesOf(
      { cpu: preset.cpu, memory: preset.memory, gpu: presetGpu(preset) },
      req.body.resources?.shm ?? false,
    );
    return { preset, resources };
  }
  const r = req.body.container.resources;
  const memory = r.memory ?? (r.memory_mb !== undefined ? r.memory_mb * 2 ** 20 : undefined);
  if (memory === undefined) throw invalid('container.resources.memory', 'Required');
  const gpu = resourcesGpu(r);
  if (req.body.scheduler_enabled && req.body.schedule_timeout !== undefined) {
    throw invalid('schedule_timeout', 'schedule_timeout cannot be used with the scheduler');
  }
  // Apolo's rule: CPU, memory, and the GPUs' vendor, count and (when asked for) model.
  const fits = (p: PresetRow) => {
    const has = presetGpu(p);
    return (
      p.cpu >= r.cpu &&
      p.memory >= memory &&
      (!gpu ||
        (has?.vendor === gpu.vendor &&
          has.count >= gpu.count &&
          (!gpu.model || has.model === gpu.model)))
    );
  };
  // The price is the cheapest preset that covers what was asked (a named one if given).
  const preset = req.body.preset_name
    ? presets.find((p) => p.name === req.body.preset_name)
    : [...presets].sort((a, b) => Number(a.creditsPerHour) - Number(b.creditsPerHour)).find(fits);
  if (!preset) throw invalid('container.resources', 'No preset of the cluster has these resources');
  return { preset, resources: resourcesOf({ cpu: r.cpu, memory, gpu }, r.shm ?? false) };
}

/**
 * The container as the job JSON shows it: volume and secret URIs in full form, checked against
 * the owner's own permissions, disks kept by id so that a renamed or re-created disk is never
 * mounted by mistake.
 */
async function containerFor(
  ctx: AppContext,
  grants: Grant[],
  req: NewJob,
  place: ProjectPlace,
  resources: JobContainer['resources'],
): Promise<StoredContainer> {
  const f = req.kind === 'preset' ? req.body : req.body.container;
  const container = normalizeUris(
    {
      image: f.image,
      resources,
      env: f.env,
      volumes: f.volumes,
      entrypoint: f.entrypoint,
      command: f.command,
      working_dir: f.working_dir,
      http: f.http && {
        port: f.http.port,
        health_check_path: f.http.health_check_path,
        requires_auth: f.http.requires_auth,
        ...(req.interactive ? { interactive: req.interactive } : {}),
      },
      secret_env: f.secret_env,
      secret_volumes: f.secret_volumes,
      disk_volumes: f.disk_volumes,
      tty: f.tty,
    },
    place,
  );
  checkVolumeAccess(grants, container);
  const diskIds = await diskIdsOf(ctx.db, container);
  const owned = req.ownedVolumes ?? [];
  const workers = req.body.nodes ?? 1;
  return {
    ...container,
    ...(workers > 1 ? { workers } : {}),
    ...(owned.length > 0
      ? { owned_volumes: container.volumes.map((v) => v.dst_path).filter((p) => owned.includes(p)) }
      : {}),
    disk_volumes: container.disk_volumes.map((v, i) => ({
      ...v,
      src_disk_uri: v.src_disk_uri.replace(/[^/]+$/, diskIds[i]!),
    })),
  };
}

/**
 * What the runtime cannot give a job (driver.ts `jobRefusals`, the process runtime without
 * bubblewrap mounts nothing) is refused before anything is recorded, rather than a job that fails
 * as it starts.
 */
function refuseUnsupported(runtime: Pick<RuntimeDriver, 'jobRefusals'>, c: StoredContainer) {
  const refused = runtime.jobRefusals ?? {};
  const mounts = c.volumes.length + c.disk_volumes.length + c.secret_volumes.length;
  if (refused.volumes && mounts > 0) throw new HttpError('conflict', refused.volumes);
  if (refused.http && c.http) throw new HttpError('conflict', refused.http);
}

/** Refuses what may not run now: a name in use, no credits, a full quota (unless waiting). */
async function refusals(ctx: AppContext, caller: Principal, place: ProjectPlace, req: NewJob) {
  const b = req.body;
  if (b.name) {
    const taken = await liveJobNamed(ctx.db, place, b.name);
    if (taken)
      throw conflict(`A job named ${b.name} is already pending or running (${taken.id})`, 'name');
  }
  const credits = await creditsLeft(ctx.db, place.org, caller.id);
  if (!credits.ok) throw new HttpError('bad_request', JOB_TEXTS.noCredits(credits.who!));
  if (!b.wait_for_jobs_quota) {
    const quota = await jobsQuota(ctx.db, place.cluster, place.org);
    if (quota.exhausted) {
      throw new HttpError(
        'bad_request',
        `Jobs quota exhausted: organization ${place.org} may run ${quota.quota} job${quota.quota === 1 ? '' : 's'} at once on cluster ${place.cluster}`,
      );
    }
  }
}

/**
 * Admission of a new job: the record to insert, or the error its request gets.
 * Scheduling (capacity, waiting for quota or credits) is the service's, later.
 */
export async function admit(
  ctx: AppContext,
  caller: Principal,
  grants: Grant[],
  req: NewJob,
  runtime: Pick<RuntimeDriver, 'name' | 'jobRefusals'>,
): Promise<JobInsert> {
  const b = req.body;
  const place: ProjectPlace = {
    cluster: b.cluster_name ?? DEFAULT_CLUSTER,
    org: b.org_name,
    project: b.project_name,
  };
  if (!(await projectExists(ctx.db, place.cluster, place.org, place.project))) {
    throw notFound('Project not found');
  }
  const [cluster] = await loadClusters(ctx.clusterCatalog, [place.cluster]);
  if (!cluster) throw notFound(`Cluster ${place.cluster} not found`);
  const { preset, resources } = presetAndResources(cluster.presets, req);
  const container = await containerFor(ctx, grants, req, place, resources);
  refuseUnsupported(runtime, container);
  await refusals(ctx, caller, place, req);
  return {
    id: `job-${randomUUID()}`,
    clusterName: place.cluster,
    orgName: place.org,
    projectName: place.project,
    ownerId: caller.id,
    owner: caller.username,
    name: b.name ?? null,
    description: b.description ?? null,
    tags: b.tags,
    presetName: preset.name,
    status: 'pending',
    container,
    restartPolicy: b.restart_policy,
    priority: b.priority,
    schedulerEnabled:
      req.kind === 'container' ? req.body.scheduler_enabled : preset.schedulerEnabled,
    passConfig: b.pass_config,
    privileged: b.privileged,
    preemptible: preset.isPreemptible,
    waitForJobsQuota: b.wait_for_jobs_quota,
    maxRunTimeMinutes: b.max_run_time_minutes ?? DEFAULT_MAX_RUN_TIME_MINUTES,
    scheduleTimeout: b.schedule_timeout ?? null,
    energyScheduleName: b.energy_schedule_name ?? null,
    pricePerHour: priceOf(preset.creditsPerHour, b.nodes ?? 1),
    runtime: runtime.name,
  };
}

/** Each worker of a gang is priced as one job of its preset. */
function priceOf(perWorker: string, workers: number): string {
  if (workers === 1) return perWorker;
  const total = Number(perWorker) * workers;
  if (total >= DECIMAL_MAX) {
    throw invalid('nodes', `${workers} workers would cost more credits per hour than one job may`);
  }
  return total.toFixed(4);
}

/** The request that runs a job again (the SDK's nested flavour, with the same resources). */
export function rerunRequest(j: JobRow): NewJob {
  // A rerun is a user's request: it owns no volume (only the apps service asks for that).
  const { owned_volumes: _owned, workers, ...container } = containerOf(j);
  const { memory_mb: _mb, ...resources } = container.resources;
  return {
    kind: 'container',
    interactive: interactiveOf(j) ?? undefined,
    body: {
      cluster_name: j.clusterName,
      org_name: j.orgName,
      project_name: j.projectName,
      name: j.name ?? undefined,
      description: j.description ?? undefined,
      tags: j.tags,
      pass_config: j.passConfig,
      max_run_time_minutes: j.maxRunTimeMinutes ?? undefined,
      schedule_timeout: j.scheduleTimeout ?? undefined,
      restart_policy: j.restartPolicy as JobCreate['restart_policy'],
      wait_for_jobs_quota: j.waitForJobsQuota,
      privileged: j.privileged,
      priority: j.priority as JobCreate['priority'],
      energy_schedule_name: j.energyScheduleName ?? undefined,
      preset_name: j.presetName ?? undefined,
      scheduler_enabled: j.schedulerEnabled,
      nodes: workers,
      container: { ...container, resources },
    },
  };
}
