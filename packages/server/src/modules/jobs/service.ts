import type { FastifyBaseLogger } from 'fastify';
import {
  DEFAULT_MAX_RUN_TIME_MINUTES,
  INT4_MAX,
  JOB_REASONS,
  JOB_TEXTS,
  isFinalJobStatus,
  type JobStatus,
} from '@orrery/contract';
import type { AppContext } from '../../context.js';
import type { Principal } from '../../auth/principal.js';
import type { Grant } from '../../auth/permissions.js';
import { HttpError } from '../../http/errors.js';
import type { ObservedState, RuntimeDriver } from '../../runtime/driver.js';
import type { DiskHolders } from '../disks/service.js';
import { CHARGE_INTERVAL_MS } from '../billing/metering.js';
import { ENFORCEMENT_PERIOD_MS, exhaustedJobs } from '../billing/enforcement.js';
import { charge, type ChargeSubject } from './accounting.js';
import { admit, rerunRequest, type NewJob } from './admission.js';
import { admitWaiting, refuseNeverFitting } from './admitting.js';
import { JobQueue } from './queue.js';
import { jobSpecOf } from './starter.js';
import {
  activeJobs,
  insertJob,
  jobById,
  transition,
  unfinishedJobs,
  updateJob,
  type JobRow,
  type Transition,
} from './store.js';
import { containerOf } from './container.js';
import type { VolumeDeps } from './volumes.js';
import { whileLeading } from '../../db/advisory-locks.js';
import { JobWatches } from './watches.js';

export type { NewJob } from './admission.js';

export interface JobsServiceOptions {
  /** How often pending jobs are scheduled and running ones checked. */
  tickMs?: number;
  /** How often running jobs are charged. */
  billEveryMs?: number;
  /** How often work whose payer has no credits left is looked for. */
  enforceEveryMs?: number;
  /** What a job of a module above jobs is charged under (app.ts hands apps' in). */
  chargedAs?: ChargeSubject;
  /** The server's disks, told once this service starts which ones workloads hold. */
  disks?: DiskHolders;
}

/**
 * The jobs service (docs/jobs-api.md): owns the state machine, history, quotas, credits,
 * max run time, schedule timeout and restart policy; the runtime driver only acts and observes.
 * One loop checks running jobs and makes one admission pass over the waiting ones (admitting.ts,
 * docs/scheduling.md); driver events make it look at once.
 */
export class JobsService {
  private timer?: NodeJS.Timeout;
  private busy = false;
  private again = false;
  private lastBill = 0;
  private lastEnforce = 0;
  private readonly tickMs: number;
  private readonly billEveryMs: number;
  private readonly enforceEveryMs: number;
  private readonly chargedAs?: ChargeSubject;
  private readonly disks?: DiskHolders;
  private unsubscribe?: () => void;
  private unlisten?: () => void;
  private reconciled = false;
  private readonly transitionListeners = new Set<(job: JobRow) => void>();
  /** Changes of jobs on every replica, for sockets that follow a job's status. */
  readonly watches = new JobWatches();
  /** Who waits, why, and in what order (queue.ts). */
  readonly queue: JobQueue;
  /** Jobs being stopped to give their capacity to another. */
  private readonly preempting = new Set<string>();
  /** Jobs cancelled whose processes may not be gone yet, as they were when running. */
  private readonly stopping = new Map<string, JobRow>();

  constructor(
    private readonly ctx: AppContext,
    readonly driver: RuntimeDriver,
    private readonly volumes: Omit<VolumeDeps, 'ctx'>,
    private readonly log: FastifyBaseLogger,
    opts: JobsServiceOptions = {},
  ) {
    this.tickMs = opts.tickMs ?? 1000;
    this.billEveryMs = opts.billEveryMs ?? CHARGE_INTERVAL_MS;
    this.enforceEveryMs = opts.enforceEveryMs ?? ENFORCEMENT_PERIOD_MS;
    this.chargedAs = opts.chargedAs;
    this.disks = opts.disks;
    this.queue = new JobQueue(ctx.db, driver, ctx.config.scheduler);
  }

  /**
   * Starts the loop, which runs on the one replica leading `jobs` (db/advisory-locks.ts): its
   * first pass reconciles every unfinished job with the driver. Jobs created or changed on
   * another replica reach this one as events (db/events.ts).
   */
  async start() {
    if (this.driver.warning) this.log.warn(this.driver.warning);
    if (this.disks) {
      this.disks.inUse = (id) => this.diskInUse(id);
      this.disks.removed = async (id) => this.driver.removeDisk?.(id);
    }
    this.unsubscribe = this.driver.onChange(() => this.kick());
    this.unlisten = this.ctx.database.events.subscribe('job', (data, origin) =>
      this.heard(String(data.id), origin),
    );
    await this.tick();
    this.timer = setInterval(() => this.kick(), this.tickMs);
    this.timer.unref();
  }

  async stop() {
    clearInterval(this.timer);
    this.unsubscribe?.();
    this.unlisten?.();
    while (this.busy) await new Promise((r) => setTimeout(r, 20));
  }

  /**
   * A job event: sockets following the job look again. One from another replica (a job created
   * or killed there) is also work for this replica's loop, and a status change for the modules
   * built on jobs, which heard this replica's own changes from `move` already.
   */
  private heard(id: string, origin: string) {
    this.watches.changed(id);
    if (origin === this.ctx.database.events.origin) return;
    this.kick();
    if (this.transitionListeners.size === 0) return;
    void jobById(this.ctx.db, id)
      .then((row) => row && this.transitionListeners.forEach((l) => l(row)))
      .catch(this.warn(id, 'job event not followed'));
  }

  /** Tells every replica that job `id` was created or changed (a lost event is polled for). */
  private announce(id: string, status: string) {
    this.ctx.database.events
      .publish('job', { id, status })
      .catch(this.warn(id, 'job event not sent'));
  }

  private warn(job: string, what: string) {
    return (err: unknown) => this.log.warn({ err, job }, what);
  }

  /** Jobs the driver holds that Orrery no longer wants are stopped; the rest are re-observed. */
  private async reconcile() {
    const wanted = new Set((await unfinishedJobs(this.ctx.db)).map((j) => j.id));
    const unwanted = (await this.driver.list()).filter((id) => !wanted.has(id));
    if (unwanted.length)
      this.log.info({ jobs: unwanted }, `Stopping ${unwanted.length} job(s) no longer wanted`);
    // All at once: each kill may wait its grace period, and the server's start waits for this.
    await Promise.all(
      unwanted.map(async (id) => {
        // One the runtime cannot stop is left to the next start's reconcile, said in the log.
        await this.driver.kill(id).catch(this.warn(id, 'unwanted job not killed'));
        await this.driver.remove(id).catch(this.warn(id, 'unwanted job not removed'));
      }),
    );
    this.reconciled = true;
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
      await whileLeading(this.ctx.database.loops, 'jobs', () => this.pass());
    } catch (e) {
      // The database is unavailable, say: the next tick tries again.
      this.log.error({ err: e }, 'jobs pass failed');
    } finally {
      this.busy = false;
    }
  }

  private async pass() {
    if (!this.reconciled) await this.reconcile();
    do {
      this.again = false;
      const now = Date.now();
      const bill = now - this.lastBill >= this.billEveryMs;
      if (bill) this.lastBill = now;
      for (const j of await unfinishedJobs(this.ctx.db)) {
        if (!j.materialized) continue;
        try {
          await this.follow(j, bill);
        } catch (e) {
          this.log.error({ err: e, job: j.id }, 'job step failed');
        }
      }
      await admitWaiting(
        {
          ctx: this.ctx,
          queue: this.queue,
          move: (j, t, extra) => this.move(j, t, extra),
          start: (j) => this.launch(j),
          preempt: (j, forJob, why) => void this.preempt(j, forJob, why),
        },
        await this.holdingJobs(),
      ).catch((e: unknown) => this.log.error({ err: e }, 'admission pass failed'));
      // Right after charges, as a balance may just have reached 0; otherwise now and then
      // (an administrator's set, storage charges).
      if (bill || now - this.lastEnforce >= this.enforceEveryMs) {
        this.lastEnforce = now;
        await this.stopExhausted().catch((e: unknown) =>
          this.log.error({ err: e }, 'credits enforcement failed'),
        );
      }
    } while (this.again);
  }

  /** The jobs that hold or want capacity: the unfinished ones and those still being stopped. */
  private async holdingJobs() {
    const rows = await unfinishedJobs(this.ctx.db);
    const ids = new Set(rows.map((j) => j.id));
    return [...rows, ...[...this.stopping.values()].filter((j) => !ids.has(j.id))];
  }

  /**
   * Told of every recorded status change of a job (after a final one's last charge), so that
   * modules built on jobs (the bake engine) react in the same tick rather than polling.
   */
  onTransition(listener: (job: JobRow) => void): () => void {
    this.transitionListeners.add(listener);
    return () => this.transitionListeners.delete(listener);
  }

  private async move(j: JobRow, t: Transition, extra: Partial<JobRow> = {}) {
    const row = await transition(this.ctx.db, j.id, t, extra);
    // Announced at once: finishing (the last charge, the runtime letting go) can take a while.
    if (row) this.announce(row.id, row.status);
    if (row && isFinalJobStatus(t.status)) await this.finish(row);
    if (row) for (const l of this.transitionListeners) l(row);
    return row;
  }

  /** An admitted job: handed to the runtime, or failed with the reason it could not start. */
  private async launch(j: JobRow) {
    try {
      const spec = await jobSpecOf(this.ctx, this.volumes, j);
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
   * Preemption (docs/scheduling.md): the job is suspended with the reason Preempted, stopped
   * (SIGTERM, the kill grace, SIGKILL), charged for what ran, and handed back to the queue,
   * where it waits to start again; its volumes keep what it saved.
   */
  private async preempt(j: JobRow, forJob: string, why: 'reclaim' | 'priority') {
    if (j.status !== 'suspended') {
      const moved = await this.move(j, {
        status: 'suspended',
        reason: JOB_REASONS.preempted,
        description:
          why === 'reclaim'
            ? `Preempted: its capacity was borrowed, and job ${forJob} of the capacity's owner needs it`
            : `Preempted for job ${forJob} of higher priority in the same project`,
      });
      if (!moved) return;
      j = moved;
    }
    if (this.preempting.has(j.id)) return;
    this.preempting.add(j.id);
    try {
      await this.driver.kill(j.id);
      const now = await jobById(this.ctx.db, j.id);
      if (now?.startedAt) await charge(this.ctx.db, now, new Date(), this.chargedAs);
      await this.driver.remove(j.id);
      await updateJob(this.ctx.db, j.id, { materialized: false });
      this.queue.forget(j.id);
    } catch (e) {
      // Left materialized: the next pass finds it suspended and tries again.
      this.log.warn({ err: e, job: j.id }, 'preempted job not stopped');
    } finally {
      this.preempting.delete(j.id);
      this.kick();
    }
  }

  /** A job handed to the driver: follows what the driver sees, and enforces the run time. */
  private async follow(j: JobRow, bill: boolean) {
    // Being preempted: stopped and handed back to the queue (also after a restart of the server).
    if (j.status === 'suspended') return this.preempt(j, '', 'reclaim');
    const seen: ObservedState = await this.driver.observe(j.id);
    if (seen.state === 'starting') {
      // Why it waits, as the runtime tells (e.g. a Pod's scheduling event), in its history.
      const differs =
        (seen.reason ?? null) !== j.reason || (seen.message ?? null) !== j.statusDescription;
      if (seen.reason && j.status === 'pending' && differs) {
        await this.move(j, { status: 'pending', reason: seen.reason, description: seen.message });
      }
      return;
    }
    if (seen.state === 'running') {
      if (j.status !== 'running') {
        await this.move(
          j,
          { status: 'running', reason: null, at: seen.startedAt },
          {
            startedAt: j.startedAt ?? seen.startedAt,
            // A restarted job is charged from its new start, not for the wait before it.
            ...(j.billedUntil && seen.startedAt > j.billedUntil
              ? { billedUntil: seen.startedAt }
              : {}),
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
      if (bill) await charge(this.ctx.db, j, new Date(), this.chargedAs);
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
        await charge(this.ctx.db, j, seen.finishedAt, this.chargedAs);
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
              description: seen.message,
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
   * Stops the running work of an organization, or of a user in it, whose credits reached 0, as
   * Apolo's enforcer does: cancelled with the reason QuotaExhausted.
   */
  private async stopExhausted() {
    for (const { jobId, who } of await exhaustedJobs(this.ctx.db)) {
      const j = await jobById(this.ctx.db, jobId);
      if (j) await this.end(j, JOB_REASONS.quotaExhausted, JOB_TEXTS.noCredits(who));
    }
  }

  /** Stops a job and records it as cancelled for `reason`. */
  private async end(j: JobRow, reason: string, description?: string) {
    // Until its processes are gone the job still holds its CPUs and GPUs: the scheduler counts
    // it, so that no job is started onto a GPU that is not free yet.
    if (j.materialized) this.stopping.set(j.id, j);
    try {
      const row = await this.move(
        j,
        { status: 'cancelled', reason, description },
        { finishedAt: new Date() },
      );
      if (row) await this.driver.kill(j.id).catch(this.warn(j.id, 'kill failed'));
    } finally {
      if (this.stopping.delete(j.id)) this.kick();
    }
  }

  /** After a final status: the last charge, and the runtime lets go of the job. */
  private async finish(j: JobRow) {
    if (j.startedAt) await charge(this.ctx.db, j, j.finishedAt ?? new Date(), this.chargedAs);
    this.queue.forget(j.id);
    if (j.materialized)
      await this.driver.remove(j.id).catch(this.warn(j.id, 'finished job not removed'));
  }

  private async diskInUse(diskId: string) {
    const active = await activeJobs(this.ctx.db);
    return active.some((j) =>
      containerOf(j).disk_volumes.some((v) => v.src_disk_uri.endsWith(`/${diskId}`)),
    );
  }

  // ---- requests ----

  async create(caller: Principal, grants: Grant[], req: NewJob): Promise<JobRow> {
    // Refused before anything is recorded: the job would not be isolated (ORRERY_UNSANDBOXED_JOBS).
    if (this.driver.refusal) throw new HttpError('conflict', this.driver.refusal);
    const values = await admit(this.ctx, caller, grants, req, this.driver);
    await refuseNeverFitting(this.ctx, this.driver, values as JobRow);
    const row = await insertJob(this.ctx.db, values, {
      status: 'pending',
      reason: JOB_REASONS.creating,
    });
    this.kick();
    this.announce(row.id, row.status);
    return row;
  }

  /**
   * Rerun: a new job with the same request, only for the owner. The admission
   * rules (credits, quota, the owner's access to every volume) apply again.
   */
  async rerun(caller: Principal, grants: Grant[], j: JobRow): Promise<JobRow> {
    if (j.ownerId !== caller.id) throw new HttpError('forbidden', 'Only the owner may rerun a job');
    return this.create(caller, grants, rerunRequest(j));
  }

  /** Kill: cancelled with reason UserRequested; a finished job stays as it is. */
  async kill(j: JobRow) {
    if (isFinalJobStatus(j.status as JobStatus)) return;
    await this.end(j, JOB_REASONS.userRequested);
  }

  async extend(j: JobRow, minutes: { add?: number; set?: number }) {
    const current = j.maxRunTimeMinutes ?? DEFAULT_MAX_RUN_TIME_MINUTES;
    // Each input fits the integer column, their sum may not: the longest is the column's limit.
    const next = Math.min(INT4_MAX, minutes.set ?? current + (minutes.add ?? 0));
    await updateJob(this.ctx.db, j.id, { maxRunTimeMinutes: next });
  }
}
