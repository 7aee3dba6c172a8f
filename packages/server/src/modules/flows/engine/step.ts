import { createInterface } from 'node:readline';
import type { FastifyBaseLogger } from 'fastify';
import { flowTime, isFinalTaskStatus, type TaskStatus } from '@orrery/contract';
import type { AppContext } from '../../../context.js';
import type { JobRow } from '../../jobs/store.js';
import { jobById } from '../../jobs/store.js';
import type { JobsService } from '../../jobs/service.js';
import {
  BatchError,
  TASKS_PER_TURN,
  cacheKey,
  evaluateTask,
  nextTurn,
  parseTaskLog,
  type NeedResult,
  type PlannedTask,
  type TaskRun,
} from '../batch/index.js';
import {
  cacheEntryByKey,
  insertTask,
  replaceTask,
  tasksOf,
  upsertCacheEntry,
  type AttemptRow,
  type TaskRow,
} from '../store.js';
import type { StatusItem } from '../tables.js';
import { runAsCreator, type LoadedBake } from './bake.js';
import { jobOfTask, taskJobRequest, taskJobTags } from './jobs.js';
import { settleAttempt } from './store.js';

export interface StepDeps {
  ctx: AppContext;
  jobs: JobsService;
  log: FastifyBaseLogger;
}

/** Outputs and state beyond this many characters of command lines are not read. */
const MAX_COMMAND_CHARS = 16 * 2 ** 20;

const statusOf = (t: TaskRow): TaskStatus => t.statuses.at(-1)?.status ?? 'unknown';
const item = (status: TaskStatus, at: Date = new Date()): StatusItem => ({
  created_at: flowTime(at),
  status,
});
const messageOf = (e: unknown) => (e instanceof Error ? e.message : String(e));

/** What the records say of a task's needs, for `enable` and the expressions. */
function needsOf(t: PlannedTask, records: Map<string, TaskRow>) {
  const needs: Record<string, NeedResult> = {};
  for (const id of t.needs) {
    const r = records.get(id);
    if (!r || !isFinalTaskStatus(statusOf(r))) return null;
    needs[id] = { result: statusOf(r), outputs: r.outputs ?? {} };
  }
  return needs;
}

/**
 * One pass over an attempt the engine drives: follows the jobs of started tasks, starts the
 * tasks whose needs are all final (cached, skipped or as jobs), and settles the attempt once
 * every task is final. Returns true when nothing is left to do for it.
 */
export async function stepAttempt(
  deps: StepDeps,
  attempt: AttemptRow,
  loaded: LoadedBake,
): Promise<boolean> {
  const db = deps.ctx.db;
  const records = new Map((await tasksOf(db, attempt.id)).map((t) => [t.yamlId, t]));
  const step = new AttemptStep(deps, attempt, loaded, records);
  if (attempt.result === 'cancelled') {
    await step.cancelAll();
    return true;
  }
  // A pass over a big bake gives the event loop a turn now and then: each task's work awaits
  // the database, which alone never lets the server's sockets (other requests, /readyz) in.
  for (const [i, t] of loaded.plan.tasks.entries()) {
    const r = records.get(t.id);
    if (r && !isFinalTaskStatus(statusOf(r))) await step.follow(t, r);
    if (i % TASKS_PER_TURN === TASKS_PER_TURN - 1) await nextTurn();
  }
  for (const [i, t] of loaded.plan.tasks.entries()) {
    if (i % TASKS_PER_TURN === TASKS_PER_TURN - 1) await nextTurn();
    if (records.has(t.id)) continue;
    const needs = needsOf(t, records);
    if (needs) await step.begin(t, needs);
  }
  const all = loaded.plan.tasks.map((t) => records.get(t.id));
  if (all.every((r) => r && isFinalTaskStatus(statusOf(r)))) {
    const bad = all.some((r) => ['failed', 'cancelled'].includes(statusOf(r!)));
    await settleAttempt(db, attempt.id, bad ? 'failed' : 'succeeded');
    return true;
  }
  if (attempt.result === 'pending') await settleAttempt(db, attempt.id, 'running');
  return false;
}

/** The work on one attempt's tasks in one pass; `records` is kept current as tasks change. */
class AttemptStep {
  constructor(
    private readonly deps: StepDeps,
    private readonly attempt: AttemptRow,
    private readonly loaded: LoadedBake,
    private readonly records: Map<string, TaskRow>,
  ) {}

  private get db() {
    return this.deps.ctx.db;
  }

  private async record(
    yamlId: string,
    change: {
      statuses: StatusItem[];
      rawId?: string | null;
      outputs?: Record<string, string> | null;
      state?: Record<string, string> | null;
    },
  ) {
    const current = this.records.get(yamlId);
    const values = {
      attemptId: this.attempt.id,
      yamlId,
      rawId: change.rawId !== undefined ? change.rawId : (current?.rawId ?? null),
      outputs: change.outputs !== undefined ? change.outputs : (current?.outputs ?? null),
      state: change.state !== undefined ? change.state : (current?.state ?? null),
      statuses: change.statuses,
    };
    const row = current ? await replaceTask(this.db, values) : await insertTask(this.db, values);
    if (row) this.records.set(yamlId, row);
    return row;
  }

  /** A task that ends before any job: the reason stays in its state, where the console shows it. */
  private fail(t: PlannedTask, message: string) {
    const before = this.records.get(t.id)?.statuses ?? [];
    return this.record(t.id, { statuses: [...before, item('failed')], state: { error: message } });
  }

  private evaluate(t: PlannedTask, needs: Record<string, NeedResult>): TaskRun | string {
    try {
      return evaluateTask(t, this.loaded.context, needs);
    } catch (e) {
      if (e instanceof BatchError) return e.message;
      throw e;
    }
  }

  /** A task whose needs are all final: skipped, cached, or recorded and started as a job. */
  async begin(t: PlannedTask, needs: Record<string, NeedResult>) {
    const run = this.evaluate(t, needs);
    if (typeof run === 'string') return this.fail(t, run);
    if (!run.enabled) return this.record(t.id, { statuses: [item('skipped')] });
    if (run.cache.enabled) {
      const entry = await cacheEntryByKey(this.db, this.cacheKeyOf(t, run, needs));
      const fresh =
        entry && Date.now() - entry.createdAt.getTime() < run.cache.lifeSpanSeconds * 1000;
      if (entry && fresh) {
        return this.record(t.id, {
          statuses: [item('cached')],
          outputs: entry.outputs,
          state: entry.state,
          rawId: entry.rawId,
        });
      }
    }
    // Recorded before its job exists: a server that dies in between adopts or creates the job
    // for this record when it resumes, never a second one.
    const row = await this.record(t.id, { statuses: [item('pending')] });
    if (row) await this.startJob(t, row, run);
  }

  private cacheKeyOf(t: PlannedTask, run: TaskRun, needs: Record<string, NeedResult>) {
    const { loaded } = this;
    return {
      projectId: loaded.flow.id,
      batch: loaded.bake.batch,
      taskId: t.id,
      key: cacheKey(run, needs),
    };
  }

  private async startJob(t: PlannedTask, row: TaskRow, run: TaskRun) {
    const { bake, flow } = this.loaded;
    let job: JobRow;
    try {
      const req = taskJobRequest(run, flow, taskJobTags(this.loaded, t.id, row.id));
      job = await runAsCreator(this.deps, bake, req);
    } catch (e) {
      return this.fail(t, messageOf(e));
    }
    await this.record(t.id, { statuses: row.statuses, rawId: job.id });
  }

  /** A started task: its record follows its job; a job never created (a crash) is created now. */
  async follow(t: PlannedTask, row: TaskRow) {
    const job =
      (row.rawId ? await jobById(this.db, row.rawId) : null) ?? (await jobOfTask(this.db, row.id));
    if (!job) {
      const needs = needsOf(t, this.records) ?? {};
      const run = this.evaluate(t, needs);
      if (typeof run === 'string') return this.fail(t, run);
      return this.startJob(t, row, run);
    }
    const statuses = [...row.statuses];
    const has = (s: TaskStatus) => statuses.some((x) => x.status === s);
    if (job.startedAt && !has('running')) statuses.push(item('running', job.startedAt));
    const final = jobFinal(job.status);
    if (!final) {
      if (statuses.length !== row.statuses.length || row.rawId !== job.id) {
        await this.record(t.id, { statuses, rawId: job.id });
      }
      return;
    }
    statuses.push(item(final, job.finishedAt ?? new Date()));
    if (final !== 'succeeded') return this.record(t.id, { statuses, rawId: job.id });
    const { outputs, state } = parseTaskLog(await this.logOf(job));
    await this.record(t.id, { statuses, rawId: job.id, outputs, state });
    const needs = needsOf(t, this.records) ?? {};
    const run = this.evaluate(t, needs);
    if (typeof run !== 'string' && run.cache.enabled) {
      await upsertCacheEntry(this.db, this.cacheKeyOf(t, run, needs), {
        outputs,
        state,
        rawId: job.id,
      });
    }
  }

  /**
   * The command lines of the job's whole log (as the monitoring API serves a finished job's):
   * only lines that start with `::` can be commands, so a long log costs no memory.
   */
  private async logOf(job: JobRow) {
    if (job.logsRemoved) return '';
    try {
      const stream = await this.deps.jobs.driver.logs(job.id, { follow: false, timestamps: false });
      const kept: string[] = [];
      let size = 0;
      for await (const line of createInterface({ input: stream, crlfDelay: Infinity })) {
        if (!line.startsWith('::')) continue;
        size += line.length;
        if (size > MAX_COMMAND_CHARS) {
          stream.destroy();
          break;
        }
        kept.push(line);
      }
      return kept.join('\n');
    } catch (e) {
      this.deps.log.warn({ err: e, job: job.id }, 'the log of a task could not be read');
      return '';
    }
  }

  /** A cancelled attempt: running jobs killed, every unfinished task cancelled. */
  async cancelAll() {
    for (const [i, t] of this.loaded.plan.tasks.entries()) {
      if (i % TASKS_PER_TURN === TASKS_PER_TURN - 1) await nextTurn();
      const row = this.records.get(t.id);
      if (row && isFinalTaskStatus(statusOf(row))) continue;
      if (row) {
        const job =
          (row.rawId ? await jobById(this.db, row.rawId) : null) ??
          (await jobOfTask(this.db, row.id));
        if (job) await this.deps.jobs.kill(job);
      }
      await this.record(t.id, { statuses: [...(row?.statuses ?? []), item('cancelled')] });
    }
  }
}

/** A job's final status as its task's; null while it has not ended. */
function jobFinal(status: string): TaskStatus | null {
  if (status === 'succeeded') return 'succeeded';
  if (status === 'failed') return 'failed';
  if (status === 'cancelled') return 'cancelled';
  return null;
}
