import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import {
  DEFAULT_MAX_RUN_TIME_MINUTES,
  JOB_REASONS,
  JOB_TEXTS,
  isFinalJobStatus,
  type JobContainer,
  type JobCreate,
  type JobCreateFromPreset,
  type JobStatus,
} from '@orrery/contract';
import type { AppContext } from '../../context.js';
import type { Principal } from '../../auth/principal.js';
import type { Grant } from '../../auth/permissions.js';
import { HttpError, conflict, invalid, notFound } from '../../http/errors.js';
import type { JobLimits, JobSpec, ObservedState, RuntimeDriver } from '../../runtime/driver.js';
import { loadClusters, type PresetRow } from '../clusters/store.js';
import { projectExists } from '../projects/store.js';
import { userById } from '../users/store.js';
import { signAccessToken } from '../../auth/tokens.js';
import { setDiskInUseCheck } from '../disks/service.js';
import { charge, creditsLeft, jobsQuota } from './accounting.js';
import {
  activeJobs,
  containerOf,
  insertJob,
  jobById,
  transition,
  unfinishedJobs,
  updateJob,
  type JobRow,
  type ProjectPlace,
  type Transition,
} from './store.js';
import {
  checkVolumeAccess,
  diskIdsOf,
  normalizeUris,
  resolveMounts,
  type VolumeDeps,
} from './volumes.js';
import { and, desc, eq, notInArray } from 'drizzle-orm';
import { jobStatuses, jobs } from '../../db/schema.js';

const RESTART_BACKOFF_MAX_S = 300;
import { FINAL_JOB_STATUSES } from '@orrery/contract';

export interface JobsServiceOptions {
  /** How often pending jobs are scheduled and running ones checked. */
  tickMs?: number;
  /** How often running jobs are charged. */
  billEveryMs?: number;
}

type GpuField = { count: number; model?: string };
const gpuOf = (p: PresetRow): JobLimits['gpu'] => {
  const g = p.gpus as Partial<Record<'nvidia' | 'amd' | 'intel', GpuField>>;
  for (const vendor of ['nvidia', 'amd', 'intel'] as const) {
    const one = g[vendor];
    if (one && one.count > 0) return { vendor, count: one.count, model: one.model };
  }
  return undefined;
};

/** The job JSON's `container.resources` from a preset. */
function resourcesOf(p: { cpu: number; memory: number; gpu?: JobLimits['gpu'] }, shm: boolean) {
  const gpu = p.gpu
    ? {
        [`${p.gpu.vendor}_gpu`]: p.gpu.count,
        ...(p.gpu.model ? { [`${p.gpu.vendor}_gpu_model`]: p.gpu.model } : {}),
      }
    : {};
  return {
    cpu: p.cpu,
    memory: p.memory,
    memory_mb: Math.round(p.memory / 2 ** 20),
    shm,
    ...gpu,
  };
}

function limitsOf(j: JobRow): JobLimits {
  const r = containerOf(j).resources;
  const vendor = (['nvidia', 'amd', 'intel'] as const).find((v) => (r[`${v}_gpu`] ?? 0) > 0);
  return {
    cpu: r.cpu,
    memory: r.memory,
    shm: r.shm,
    gpu: vendor
      ? { vendor, count: r[`${vendor}_gpu`]!, model: r[`${vendor}_gpu_model`] }
      : undefined,
  };
}

export type NewJob =
  { kind: 'preset'; body: JobCreateFromPreset } | { kind: 'container'; body: JobCreate };

/**
 * The jobs service (DESIGN.md "Workloads"): owns the state machine, history, quotas, credits,
 * max run time, schedule timeout and restart policy; the runtime driver only acts and observes.
 * One loop schedules pending jobs in creation order and checks running ones; driver events make
 * it look at a job at once.
 */
export class JobsService {
  private timer?: NodeJS.Timeout;
  private busy = false;
  private again = false;
  private lastBill = 0;
  private readonly tickMs: number;
  private readonly billEveryMs: number;
  private unsubscribe?: () => void;

  constructor(
    private readonly ctx: AppContext,
    readonly driver: RuntimeDriver,
    private readonly volumes: Omit<VolumeDeps, 'ctx'>,
    private readonly log: FastifyBaseLogger,
    opts: JobsServiceOptions = {},
  ) {
    this.tickMs = opts.tickMs ?? 1000;
    this.billEveryMs = opts.billEveryMs ?? 60_000;
  }

  /** Reconciles every unfinished job with the driver, then starts the loop. */
  async start() {
    if (this.driver.warning) this.log.warn(this.driver.warning);
    setDiskInUseCheck((id) => this.diskInUse(id));
    this.unsubscribe = this.driver.onChange(() => this.kick());
    await this.reconcile();
    this.timer = setInterval(() => this.kick(), this.tickMs);
    this.timer.unref();
  }

  async stop() {
    clearInterval(this.timer);
    this.unsubscribe?.();
    while (this.busy) await new Promise((r) => setTimeout(r, 20));
  }

  /** Jobs the driver holds that Orrery no longer wants are stopped; the rest are re-observed. */
  private async reconcile() {
    const wanted = new Set((await unfinishedJobs(this.ctx.db)).map((j) => j.id));
    for (const id of await this.driver.list()) {
      if (wanted.has(id)) continue;
      await this.driver.kill(id).catch(() => undefined);
      await this.driver.remove(id).catch(() => undefined);
    }
    await this.tick();
  }

  /** Runs a tick now, or right after the one in progress. */
  kick() {
    if (this.busy) {
      this.again = true;
      return;
    }
    void this.tick();
  }

  private async tick() {
    if (this.busy) return;
    this.busy = true;
    try {
      do {
        this.again = false;
        const now = Date.now();
        const bill = now - this.lastBill >= this.billEveryMs;
        if (bill) this.lastBill = now;
        for (const j of await unfinishedJobs(this.ctx.db)) {
          try {
            if (j.materialized) await this.follow(j, bill);
            else await this.schedule(j);
          } catch (e) {
            this.log.error({ err: e, job: j.id }, 'job step failed');
          }
        }
      } while (this.again);
    } finally {
      this.busy = false;
    }
  }

  private async move(j: JobRow, t: Transition, extra: Partial<JobRow> = {}) {
    const row = await transition(this.ctx.db, j.id, t, extra);
    if (row && isFinalJobStatus(t.status)) await this.finish(row);
    return row;
  }

  /** A pending job: waits for schedule timeout, credits, quota and capacity, then starts. */
  private async schedule(j: JobRow) {
    if (j.reason === JOB_REASONS.restarting && (await this.backingOff(j))) return;
    const waited = (Date.now() - j.createdAt.getTime()) / 1000;
    if (j.scheduleTimeout && waited > j.scheduleTimeout) {
      await this.move(
        j,
        {
          status: 'failed',
          reason: JOB_REASONS.scheduleTimeout,
          description: `The job could not be scheduled within ${j.scheduleTimeout} s (last reason: ${j.reason ?? 'none'})`,
        },
        { finishedAt: new Date() },
      );
      return;
    }
    const credits = await creditsLeft(this.ctx.db, j.orgName, j.ownerId);
    if (!credits.ok) {
      await this.move(j, {
        status: 'pending',
        reason: JOB_REASONS.noCredits,
        description: JOB_TEXTS.noCredits(credits.who!),
      });
      return;
    }
    const quota = await jobsQuota(this.ctx.db, j.clusterName, j.orgName, j.id);
    if (quota.exhausted) {
      await this.move(j, {
        status: 'pending',
        reason: JOB_REASONS.quotaExhausted,
        description: `Waiting for the organization's jobs quota: ${quota.used} of ${quota.quota} jobs run`,
      });
      return;
    }
    const limits = limitsOf(j);
    const pools = await this.driver.capacity();
    const fits = pools.some(
      (p) => p.availableCpu >= limits.cpu - 1e-9 && p.availableMemory >= limits.memory,
    );
    if (!fits) {
      await this.move(j, {
        status: 'pending',
        reason: JOB_REASONS.capacity,
        description: `Waiting for free capacity: the job needs ${limits.cpu} CPU and ${Math.round(limits.memory / 1e6)} MB of memory`,
      });
      return;
    }
    const c = containerOf(j);
    let spec: JobSpec;
    try {
      const { mounts, env } = await resolveMounts({ ctx: this.ctx, ...this.volumes }, j.id, c);
      if (j.passConfig) Object.assign(env, await this.passedConfig(j));
      const registry = new URL(this.ctx.config.publicUrl).host;
      spec = {
        id: j.id,
        image: c.image,
        entrypoint: c.entrypoint,
        command: c.command,
        workingDir: c.working_dir,
        env,
        mounts,
        limits,
        httpPort: c.http?.port,
        tty: c.tty,
        privileged: j.privileged,
        // An image of the project's registry is pulled with the owner's credentials.
        registryAuth: c.image.startsWith(`${registry}/`)
          ? { username: j.owner, password: await this.ownerToken(j), serveraddress: registry }
          : undefined,
      };
      await updateJob(this.ctx.db, j.id, { materialized: true });
      await this.move(j, { status: 'pending', reason: JOB_REASONS.containerCreating });
      await this.driver.start(spec);
      // Look again at once: a container is often running by the time start() returns.
      this.again = true;
    } catch (e) {
      this.log.warn({ err: e, job: j.id }, 'job could not start');
      await this.move(
        j,
        {
          status: 'failed',
          reason: JOB_REASONS.containerCannotRun,
          description: e instanceof Error ? e.message : String(e),
        },
        { finishedAt: new Date() },
      );
    }
  }

  /**
   * A job that keeps failing is restarted after 1, 2, 4 … seconds, at most five minutes apart,
   * rather than once a tick (a crash loop's back-off).
   */
  private async backingOff(j: JobRow) {
    const [last] = await this.ctx.db
      .select({ at: jobStatuses.transitionTime })
      .from(jobStatuses)
      .where(eq(jobStatuses.jobId, j.id))
      .orderBy(desc(jobStatuses.seq))
      .limit(1);
    const delay = Math.min(2 ** Math.max(0, j.restarts - 1), RESTART_BACKOFF_MAX_S) * 1000;
    return !!last && Date.now() - last.at.getTime() < delay;
  }

  /** A job handed to the driver: follows what the driver sees, and enforces the run time. */
  private async follow(j: JobRow, bill: boolean) {
    const seen: ObservedState = await this.driver.observe(j.id);
    if (seen.state === 'running') {
      if (j.status !== 'running') {
        await this.move(
          j,
          { status: 'running', reason: null, at: seen.startedAt },
          {
            startedAt: j.startedAt ?? seen.startedAt,
          },
        );
        return;
      }
      const limit = j.maxRunTimeMinutes;
      if (limit && j.startedAt && Date.now() - j.startedAt.getTime() > limit * 60_000) {
        await this.end(
          j,
          JOB_REASONS.lifeSpanEnded,
          `The job ran longer than its maximum of ${limit} minutes`,
        );
        return;
      }
      if (bill) await this.chargeAndCheck(j);
      return;
    }
    if (seen.state === 'exited') {
      if (!j.startedAt) {
        // It ran and ended between two looks: its history still shows it running.
        const startedAt = seen.startedAt ?? seen.finishedAt;
        const ran = await this.move(
          j,
          { status: 'running', reason: null, at: startedAt },
          { startedAt },
        );
        if (!ran) return;
        j = ran;
      }
      const failed = seen.exitCode !== 0;
      const restart = j.restartPolicy === 'always' || (j.restartPolicy === 'on-failure' && failed);
      if (restart) {
        await charge(this.ctx.db, j, seen.finishedAt);
        await this.driver.remove(j.id);
        await updateJob(this.ctx.db, j.id, { restarts: j.restarts + 1, materialized: false });
        await this.move(j, {
          status: 'pending',
          reason: JOB_REASONS.restarting,
          description: `Exited with code ${seen.exitCode}; restarting (${j.restartPolicy})`,
          exitCode: seen.exitCode,
        });
        return;
      }
      await this.move(
        j,
        failed
          ? {
              status: 'failed',
              reason: seen.reason ?? JOB_REASONS.error,
              exitCode: seen.exitCode,
              at: seen.finishedAt,
            }
          : {
              status: 'succeeded',
              reason: JOB_REASONS.completed,
              exitCode: 0,
              at: seen.finishedAt,
            },
        { finishedAt: seen.finishedAt },
      );
      return;
    }
    if (seen.state === 'missing') {
      await this.move(
        j,
        {
          status: 'failed',
          reason: JOB_REASONS.notFound,
          description: 'The runtime no longer knows this job',
        },
        { finishedAt: new Date() },
      );
    }
  }

  /**
   * `pass_config`: the owner's credentials inside the job, so `apolo` works there as its owner
   * (the SDK reads base64 JSON from NEURO_PASSED_CONFIG). The token lives as long as the job may.
   */
  private async passedConfig(j: JobRow): Promise<Record<string, string>> {
    const token = await this.ownerToken(j);
    const passed = Buffer.from(
      JSON.stringify({
        token,
        cluster: j.clusterName,
        org_name: j.orgName,
        project_name: j.projectName,
        url: `${this.ctx.config.publicUrl}/api/v1`,
      }),
    ).toString('base64');
    return { NEURO_PASSED_CONFIG: passed, APOLO_PASSED_CONFIG: passed };
  }

  /** A token of the job's owner that lives as long as the job may. */
  private async ownerToken(j: JobRow) {
    const owner = j.ownerId ? await userById(this.ctx.db, j.ownerId) : null;
    if (!owner || this.ctx.config.oidc.external || !this.ctx.keys[0]) {
      throw new Error('Acting as the owner needs the embedded identity provider and the account');
    }
    return signAccessToken({
      key: this.ctx.keys[0],
      issuer: this.ctx.config.oidc.issuer,
      audience: this.ctx.config.oidc.audience,
      subject: { id: owner.id, username: owner.username, email: owner.email },
      ttlSeconds: 60 * (j.maxRunTimeMinutes ?? DEFAULT_MAX_RUN_TIME_MINUTES) + 3600,
    });
  }

  /** Charges a running job; a job whose payer has no credits left is stopped. */
  private async chargeAndCheck(j: JobRow, until = new Date()) {
    await charge(this.ctx.db, j, until);
    const credits = await creditsLeft(this.ctx.db, j.orgName, j.ownerId);
    if (!credits.ok) await this.end(j, JOB_REASONS.noCredits, JOB_TEXTS.noCredits(credits.who!));
  }

  /** Stops a job and records it as cancelled for `reason`. */
  private async end(j: JobRow, reason: string, description?: string) {
    const row = await this.move(
      j,
      { status: 'cancelled', reason, description },
      { finishedAt: new Date() },
    );
    if (row)
      await this.driver
        .kill(j.id)
        .catch((e) => this.log.warn({ err: e, job: j.id }, 'kill failed'));
  }

  /** After a final status: the last charge, and the runtime lets go of the job. */
  private async finish(j: JobRow) {
    if (j.startedAt) await charge(this.ctx.db, j, j.finishedAt ?? new Date());
    if (j.materialized) await this.driver.remove(j.id).catch(() => undefined);
  }

  private async diskInUse(diskId: string) {
    const active = await activeJobs(this.ctx.db);
    return active.some((j) =>
      containerOf(j).disk_volumes.some((v) => v.src_disk_uri.endsWith(`/${diskId}`)),
    );
  }

  // ---- requests ----

  async create(caller: Principal, grants: Grant[], req: NewJob): Promise<JobRow> {
    const b = req.body;
    const place: ProjectPlace = {
      cluster: b.cluster_name ?? 'default',
      org: b.org_name,
      project: b.project_name,
    };
    if (!(await projectExists(this.ctx.db, place.cluster, place.org, place.project))) {
      throw notFound('Project not found');
    }
    const [cluster] = await loadClusters(this.ctx.db, [place.cluster]);
    if (!cluster) throw notFound(`Cluster ${place.cluster} not found`);
    const presets = cluster.presets;

    let preset: PresetRow | undefined;
    let resources: ReturnType<typeof resourcesOf>;
    if (req.kind === 'preset') {
      preset = req.body.preset_name
        ? presets.find((p) => p.name === req.body.preset_name)
        : presets[0];
      if (!preset)
        throw invalid('preset_name', `Preset ${req.body.preset_name ?? ''} not found`.trim());
      resources = resourcesOf(
        { cpu: preset.cpu, memory: preset.memory, gpu: gpuOf(preset) },
        req.body.resources?.shm ?? false,
      );
    } else {
      const r = req.body.container.resources;
      const memory = r.memory ?? (r.memory_mb !== undefined ? r.memory_mb * 2 ** 20 : undefined);
      if (memory === undefined) throw invalid('container.resources.memory', 'Required');
      const vendor = (['nvidia', 'amd', 'intel'] as const).find((v) => (r[`${v}_gpu`] ?? 0) > 0);
      const gpu = vendor
        ? { vendor, count: r[`${vendor}_gpu`]!, model: r[`${vendor}_gpu_model`] }
        : undefined;
      if (req.body.scheduler_enabled && req.body.schedule_timeout !== undefined) {
        throw invalid('schedule_timeout', 'schedule_timeout cannot be used with the scheduler');
      }
      // The price is the cheapest preset that covers what was asked (a named one if given).
      preset = req.body.preset_name
        ? presets.find((p) => p.name === req.body.preset_name)
        : [...presets]
            .sort((a, b2) => Number(a.creditsPerHour) - Number(b2.creditsPerHour))
            .find(
              (p) =>
                p.cpu >= r.cpu &&
                p.memory >= memory &&
                (!gpu || (gpuOf(p)?.vendor === gpu.vendor && gpuOf(p)!.count >= gpu.count)),
            );
      if (!preset)
        throw invalid('container.resources', 'No preset of the cluster has these resources');
      resources = resourcesOf({ cpu: r.cpu, memory, gpu }, r.shm ?? false);
    }

    const fields = req.kind === 'preset' ? req.body : req.body.container;
    let container: JobContainer = normalizeUris(
      {
        image: fields.image,
        resources,
        env: fields.env,
        volumes: fields.volumes,
        entrypoint: fields.entrypoint,
        command: fields.command,
        working_dir: fields.working_dir,
        http: fields.http
          ? {
              port: fields.http.port,
              health_check_path: fields.http.health_check_path,
              requires_auth: fields.http.requires_auth,
            }
          : undefined,
        secret_env: fields.secret_env,
        secret_volumes: fields.secret_volumes,
        disk_volumes: fields.disk_volumes,
        tty: fields.tty,
      },
      place,
    );
    checkVolumeAccess(grants, container);
    // Disks are kept by id, so a renamed or re-created disk is never mounted by mistake.
    const diskIds = await diskIdsOf(this.ctx.db, container);
    container = {
      ...container,
      disk_volumes: container.disk_volumes.map((v, i) => ({
        ...v,
        src_disk_uri: v.src_disk_uri.replace(/[^/]+$/, diskIds[i]!),
      })),
    };

    if (b.name) {
      const [taken] = await this.ctx.db
        .select({ id: jobs.id })
        .from(jobs)
        .where(
          and(
            eq(jobs.clusterName, place.cluster),
            eq(jobs.orgName, place.org),
            eq(jobs.projectName, place.project),
            eq(jobs.name, b.name),
            notInArray(jobs.status, [...FINAL_JOB_STATUSES]),
          ),
        );
      if (taken)
        throw conflict(`A job named ${b.name} is already pending or running (${taken.id})`, 'name');
    }
    const credits = await creditsLeft(this.ctx.db, place.org, caller.id);
    if (!credits.ok) throw new HttpError('bad_request', JOB_TEXTS.noCredits(credits.who!));
    if (!b.wait_for_jobs_quota) {
      const quota = await jobsQuota(this.ctx.db, place.cluster, place.org);
      if (quota.exhausted) {
        throw new HttpError(
          'bad_request',
          `Jobs quota exhausted: organization ${place.org} may run ${quota.quota} jobs on cluster ${place.cluster}`,
        );
      }
    }

    const row = await insertJob(
      this.ctx.db,
      {
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
        pricePerHour: preset.creditsPerHour,
        runtime: this.driver.name,
      },
      { status: 'pending', reason: JOB_REASONS.creating },
    );
    this.kick();
    return row;
  }

  /**
   * Rerun (workloads §4): a new job with the same request, only for the owner. The admission
   * rules (credits, quota, the owner's access to every volume) apply again.
   */
  async rerun(caller: Principal, grants: Grant[], j: JobRow): Promise<JobRow> {
    if (j.ownerId !== caller.id) throw new HttpError('forbidden', 'Only the owner may rerun a job');
    const c = containerOf(j);
    const r = c.resources;
    return this.create(caller, grants, {
      kind: 'container',
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
        container: {
          ...c,
          http: c.http,
          resources: {
            cpu: r.cpu,
            memory: r.memory,
            shm: r.shm,
            nvidia_gpu: r.nvidia_gpu,
            nvidia_gpu_model: r.nvidia_gpu_model,
            amd_gpu: r.amd_gpu,
            amd_gpu_model: r.amd_gpu_model,
            intel_gpu: r.intel_gpu,
            intel_gpu_model: r.intel_gpu_model,
          },
        },
      },
    });
  }

  /** Kill (apolo-wire §2): cancelled with reason UserRequested; a finished job stays as it is. */
  async kill(j: JobRow) {
    if (isFinalJobStatus(j.status as JobStatus)) return;
    await this.end(j, JOB_REASONS.userRequested);
  }

  async extend(j: JobRow, minutes: { add?: number; set?: number }) {
    const current = j.maxRunTimeMinutes ?? DEFAULT_MAX_RUN_TIME_MINUTES;
    const next = minutes.set ?? current + (minutes.add ?? 0);
    await updateJob(this.ctx.db, j.id, { maxRunTimeMinutes: next });
  }

  async get(id: string) {
    return jobById(this.ctx.db, id);
  }
}
