import type { AttemptRow } from '../store.js';
import { settleAttempt, attemptsToDrive } from './store.js';
import { AttemptLocks } from './lock.js';
import { loadBake, type LoadedBake } from './bake.js';
import { bakeLimitsOf } from './start.js';
import { stepAttempt, type StepDeps } from './step.js';
import { BatchError } from '../batch/index.js';

export interface EngineOptions {
  /** How often attempts are looked at when no job changed (a cancel, another replica's death). */
  tickMs?: number;
}

/** Tags of the jobs the engine started: a change of one of them is work for the engine. */
const isTaskJob = (tags: string[]) => tags.some((t) => t.startsWith('flow_task:'));

/**
 * Orrery's bake engine: drives every attempt recorded with `engine = true`. A pass
 * runs now and then, and at once when a task's job changes status, so that a chain of tasks
 * waits on no timer. Each attempt is driven by the one replica that holds its advisory lock.
 */
export class BakeEngine {
  private timer?: NodeJS.Timeout;
  private busy = false;
  private again = false;
  private stopping = false;
  private readonly locks: AttemptLocks;
  private readonly loaded = new Map<string, LoadedBake>();
  private unsubscribe?: () => void;
  private readonly tickMs: number;

  constructor(
    private readonly deps: StepDeps,
    opts: EngineOptions = {},
  ) {
    this.locks = new AttemptLocks(deps.ctx);
    this.tickMs = opts.tickMs ?? 1000;
  }

  start() {
    // A job still pending (waiting, its container being created) changes nothing of its task.
    this.unsubscribe = this.deps.jobs.onTransition((job) => {
      if (job.status !== 'pending' && isTaskJob(job.tags)) this.kick();
    });
    this.timer = setInterval(() => this.kick(), this.tickMs);
    this.timer.unref();
    this.kick();
  }

  async stop() {
    this.stopping = true;
    clearInterval(this.timer);
    this.unsubscribe?.();
    while (this.busy) await new Promise((r) => setTimeout(r, 20));
    await this.locks.close();
  }

  /** A pass now, or right after the one in progress. */
  kick() {
    if (this.stopping) return;
    if (this.busy) {
      this.again = true;
      return;
    }
    void this.tick();
  }

  private async tick() {
    this.busy = true;
    try {
      do {
        this.again = false;
        const attempts = await attemptsToDrive(this.deps.ctx.db);
        for (const a of attempts) {
          if (this.stopping) return;
          await this.drive(a);
        }
        // Attempts with nothing left to drive (cancelled before any task started, deleted).
        const listed = new Set(attempts.map((a) => a.id));
        for (const id of this.locks.heldIds()) if (!listed.has(id)) await this.forget(id);
      } while (this.again && !this.stopping);
    } catch (e) {
      this.deps.log.error({ err: e }, 'bake engine pass failed');
    } finally {
      this.busy = false;
    }
  }

  private async drive(a: AttemptRow) {
    try {
      if (!(await this.locks.take(a.id))) return;
      let bake = this.loaded.get(a.id);
      if (!bake) {
        const found = await loadBake(this.deps.ctx.db, a, bakeLimitsOf(this.deps.ctx.config.flows));
        if (!found) {
          await settleAttempt(this.deps.ctx.db, a.id, 'failed');
          return this.forget(a.id);
        }
        bake = found;
        this.loaded.set(a.id, bake);
      }
      if (await stepAttempt(this.deps, a, bake)) await this.forget(a.id);
    } catch (e) {
      // A batch file the parser refuses now (it accepted it at start) can never run.
      if (e instanceof BatchError) {
        this.deps.log.warn({ err: e, attempt: a.id }, 'bake refused');
        await settleAttempt(this.deps.ctx.db, a.id, 'failed');
        await this.forget(a.id);
        return;
      }
      this.deps.log.error({ err: e, attempt: a.id }, 'bake step failed');
    }
  }

  private async forget(attemptId: string) {
    this.loaded.delete(attemptId);
    await this.locks.release(attemptId);
  }
}
