import type { FastifyBaseLogger } from 'fastify';
import { JOB_REASONS, type AppEventWire, type AppState } from '@orrery/contract';
import type { AppContext } from '../../context.js';
import { whileLeading } from '../../db/advisory-locks.js';
import type { JobRow } from '../jobs/store.js';
import { HEALTH_TIMEOUT_MS, runHealthCheck, type HealthCheck } from './health.js';
import type { AppsService } from './service.js';
import { homeOf } from './service.js';
import {
  INSTANCE_TAG_PREFIX,
  addEvent,
  jobsOfInstance,
  currentJobsOf,
  currentRevisionsOf,
  jobsOfRevision,
  liveInstances,
  transitionInstance,
  updateInstance,
  type InstanceRow,
  type RevisionRow,
} from './store.js';

export interface WatcherOptions {
  /** How often states are derived from jobs and health checks. */
  tickMs?: number;
  /** How often interactive apps are asked for their last activity (idle shutdown). */
  idlePollMs?: number;
  /** Told after each pass that asked for activity (tests wait for passes, not for time). */
  onIdlePass?: () => void;
}

type Step = 'waiting_for_capacity' | 'starting' | 'waiting_for_http' | null;

interface Derived {
  state: AppState;
  reason: string | null;
  message: string | null;
  step: Step;
}

const WAITING = new Set<string>([
  JOB_REASONS.capacity,
  JOB_REASONS.quotaExhausted,
  JOB_REASONS.noCredits,
  JOB_REASONS.creating,
]);

/** A bare reason (`Error`) says little: the exit code with it says how the program ended. */
const exited = (j: JobRow) =>
  !j.statusDescription && j.exitCode !== null && j.exitCode !== undefined
    ? ` (exit code ${j.exitCode}; its Log tab has the output)`
    : '';

const resourcesOf = (jobs: JobRow[]): AppEventWire['resources'] =>
  jobs.map((j) => ({
    kind: 'Job',
    name: j.tags.find((t) => t.startsWith('app-role:'))?.slice('app-role:'.length) ?? j.id,
    uid: j.id,
    health_status: j.status,
    health_message: j.statusDescription ?? j.reason ?? null,
  }));

/**
 * Follows every instance that is not uninstalled: its state comes from the jobs of its current
 * revision and the runner's HTTP check, each change an event. Interactive apps with
 * an idle timeout are stopped when their runner reports no activity for that long.
 */
export class InstanceWatcher {
  private timer?: NodeJS.Timeout;
  private busy = false;
  /** A job of an instance moved while a pass ran: another pass follows at once. */
  private again = false;
  private unlisten?: () => void;
  private lastIdlePoll = 0;
  private readonly tickMs: number;
  private readonly idlePollMs: number;
  private readonly onIdlePass?: () => void;

  constructor(
    private readonly ctx: AppContext,
    private readonly apps: AppsService,
    private readonly log: FastifyBaseLogger,
    opts: WatcherOptions = {},
  ) {
    this.tickMs = opts.tickMs ?? 1000;
    this.idlePollMs = opts.idlePollMs ?? 60_000;
    this.onIdlePass = opts.onIdlePass;
  }

  start() {
    this.timer = setInterval(() => void this.tick(), this.tickMs);
    this.timer.unref();
    // An instance's job that fails or starts moves the instance at once, not at the next tick:
    // the console reads the job's status pushed, and the instance must not lag behind it.
    this.unlisten = this.apps.jobs.onTransition((j) => {
      if (j.tags.some((t) => t.startsWith(INSTANCE_TAG_PREFIX))) void this.tick(true);
    });
  }

  async stop() {
    this.unlisten?.();
    clearInterval(this.timer);
    while (this.busy) await new Promise((r) => setTimeout(r, 20));
  }

  /** A pass; `moved` (a job of an instance changed) runs one after a pass under way. */
  private async tick(moved = false) {
    if (this.busy) {
      if (moved) this.again = true;
      return;
    }
    this.busy = true;
    try {
      do {
        this.again = false;
        // One replica follows the instances (db/advisory-locks.ts).
        await whileLeading(this.ctx.database.loops, 'apps', () => this.pass());
      } while (this.again);
    } catch (e) {
      this.log.error({ err: e }, 'apps pass failed');
    } finally {
      this.busy = false;
    }
  }

  private async pass() {
    const pollIdle = Date.now() - this.lastIdlePoll >= this.idlePollMs;
    if (pollIdle) this.lastIdlePoll = Date.now();
    const rows = await liveInstances(this.ctx.db);
    // The jobs and revisions of every instance in two queries, not two per instance.
    const followed = rows.filter((r) => r.state !== 'uninstalling' && !r.idleStoppedAt);
    const [jobsOf, revisions] = await Promise.all([
      currentJobsOf(this.ctx.db, followed),
      currentRevisionsOf(this.ctx.db, followed),
    ]);
    for (const row of rows) {
      try {
        await this.follow(row, pollIdle, jobsOf.get(row.id) ?? [], revisions.get(row.id));
      } catch (e) {
        this.log.error({ err: e, instance: row.id }, 'app step failed');
      }
    }
    if (pollIdle) this.onIdlePass?.();
  }

  private async follow(
    row: InstanceRow,
    pollIdle: boolean,
    jobs: JobRow[],
    rev: RevisionRow | undefined,
  ) {
    if (row.state === 'uninstalling') {
      const all = await jobsOfInstance(this.ctx.db, row.id);
      if (all.every((j) => j.finishedAt)) await this.apps.finishUninstall(row.id);
      return;
    }
    if (row.idleStoppedAt) return;
    const next = await this.derive(row, jobs, rev?.health ?? null);
    const stepChanged = next.step !== row.step;
    if (next.state !== row.state) {
      const moved = await transitionInstance(this.ctx.db, row, {
        state: next.state,
        step: next.step,
        stepMessage: next.message,
        ...(stepChanged ? { stepSince: new Date() } : {}),
        ...(next.state === 'healthy' && row.state !== 'healthy'
          ? { lastActivityAt: new Date() }
          : {}),
      });
      if (moved) await addEvent(this.ctx.db, row.id, { ...next, resources: resourcesOf(jobs) });
      return;
    }
    if (stepChanged || next.message !== row.stepMessage) {
      await transitionInstance(this.ctx.db, row, {
        step: next.step,
        stepMessage: next.message,
        ...(stepChanged ? { stepSince: new Date() } : {}),
      });
    }
    if (pollIdle && row.state === 'healthy') await this.idleCheck(row, rev);
  }

  /** The state the jobs and the health check say. */
  private async derive(
    row: InstanceRow,
    jobs: JobRow[],
    health: RevisionRow['health'],
  ): Promise<Derived> {
    const failed = jobs.find((j) => j.status === 'failed' || j.status === 'cancelled');
    if (failed) {
      const killed = failed.reason === JOB_REASONS.userRequested;
      return {
        state: 'errored',
        reason: killed ? 'JobKilled' : (failed.reason ?? 'JobFailed'),
        message: killed
          ? `Job ${failed.id} was killed`
          : `Job ${failed.id} ${failed.status}: ${failed.statusDescription ?? failed.reason ?? 'no reason given'}${exited(failed)}`,
        step: null,
      };
    }
    const pending = jobs.find((j) => j.status === 'pending' || j.status === 'suspended');
    if (pending || jobs.length === 0) {
      const waiting = !pending || WAITING.has(pending.reason ?? JOB_REASONS.creating);
      return {
        state: 'queued',
        reason: pending?.reason ?? null,
        message: pending?.statusDescription ?? null,
        step: waiting ? 'waiting_for_capacity' : 'starting',
      };
    }
    if (!health || jobs.every((j) => j.status === 'succeeded')) {
      return { state: 'healthy', reason: null, message: null, step: null };
    }
    const job = jobs.find((j) => j.tags.includes(`app-role:${health.role}`));
    const answer = job ? await this.check(job, health) : 'no such job';
    if (answer === null)
      return { state: 'healthy', reason: 'HealthCheckPassed', message: null, step: null };
    if (row.state === 'healthy' || row.state === 'degraded') {
      return { state: 'degraded', reason: 'HealthCheckFailed', message: answer, step: null };
    }
    return {
      state: 'progressing',
      reason: 'WaitingForHttp',
      message: answer,
      step: 'waiting_for_http',
    };
  }

  /** Null when the job answers the revision's check, else what went wrong. */
  private async check(job: JobRow, health: HealthCheck): Promise<string | null> {
    const target = await this.apps.jobs.driver.endpoint(job.id);
    if (!target) return 'The app has no endpoint yet';
    return runHealthCheck(target, health);
  }

  /** Idle shutdown: stops the jobs (files stay) after `idle_timeout_minutes` without activity. */
  private async idleCheck(row: InstanceRow, rev: RevisionRow | undefined) {
    const t = this.apps.catalogue.find(row.templateName, row.templateVersion);
    const runner = t && this.apps.catalogue.runnerOf(t);
    const minutes = idleMinutesOf(rev?.resolved);
    if (!runner?.lastActivity || !minutes) return;
    const ctx = await this.apps.outputContext(row);
    const probe = async (role: string, path: string) => {
      const jobs = await jobsOfRevision(this.ctx.db, row.id, row.revision);
      const job = jobs.find((j) => j.tags.includes(`app-role:${role}`));
      const target = job && (await this.apps.jobs.driver.endpoint(job.id));
      if (!target) throw new Error(`No endpoint for ${role}`);
      return fetch(`http://${target.host}:${target.port}${path}`, {
        signal: AbortSignal.timeout(HEALTH_TIMEOUT_MS),
      });
    };
    const seen = await runner.lastActivity(probe, ctx).catch(() => null);
    const last = [seen, row.lastActivityAt]
      .filter(Boolean)
      .sort((a, b) => b!.getTime() - a!.getTime())[0];
    if (seen && (!row.lastActivityAt || seen > row.lastActivityAt)) {
      await updateInstance(this.ctx.db, row.id, { lastActivityAt: seen });
    }
    if (!last || Date.now() - last.getTime() < minutes * 60_000) return;
    // Claimed first (the watcher leaves a claimed instance alone, a concurrent configure clears
    // the claim), then the jobs end and the event is written, and only then is it seen stopped:
    // whoever reads `degraded` finds its IdleShutdown event and the jobs already cancelled.
    const claimed = await transitionInstance(this.ctx.db, row, { idleStoppedAt: new Date() });
    if (!claimed) return;
    await this.apps.killRevision(row.id, row.revision);
    const stopped = `Stopped after ${minutes} minutes without activity; the files in ${homeOf(row)} stay. Configure or roll back to start it again.`;
    await addEvent(this.ctx.db, row.id, {
      state: 'degraded',
      reason: 'IdleShutdown',
      message: stopped,
    });
    await transitionInstance(this.ctx.db, claimed, {
      state: 'degraded',
      step: null,
      stepMessage: stopped,
    });
  }
}

/** `idle_timeout_minutes` of an input: 0 or absent means never. */
export const idleMinutesOf = (input: Record<string, unknown> | undefined) => {
  const v = input?.idle_timeout_minutes;
  return typeof v === 'number' && v > 0 ? v : 0;
};
