import { describeWait, JOB_REASONS, JOB_TEXTS, type ResourceAmounts } from '@orrery/contract';
import { formatAmount, QUOTA_RESOURCES } from '@orrery/contract';
import type { AppContext } from '../../context.js';
import { HttpError } from '../../http/errors.js';
import type { RuntimeDriver } from '../../runtime/driver.js';
import { mayUse, neverFits, type WaitReason } from '../scheduler/decide.js';
import { perJobOn, workersFitting } from '../scheduler/place.js';
import { presetPoolMap } from '../clusters/store.js';
import { creditsLeft, type CreditsLeft } from './accounting.js';
import { requestsOf, schedNodes, type JobQueue } from './queue.js';
import { lastTransitionAt, type JobRow, type Transition } from './store.js';
import { containerOf, workersOf } from './container.js';

/** A job that keeps failing waits at most this long between starts. */
const RESTART_BACKOFF_MAX_S = 300;

export interface AdmittingDeps {
  ctx: AppContext;
  queue: JobQueue;
  move(j: JobRow, t: Transition, extra?: Partial<JobRow>): Promise<JobRow | null>;
  /** Hands an admitted job to the runtime. */
  start(j: JobRow): Promise<void>;
  /** Stops a running job so that `forJob` can start; it waits in the queue again. */
  preempt(j: JobRow, forJob: string, why: 'reclaim' | 'priority'): void;
}

/**
 * One admission pass over every waiting job (docs/scheduling.md): schedule timeouts end jobs,
 * credits and a crash loop's back-off hold them, and the scheduler's core decides the rest at
 * once: which start, which running jobs give way, and why each other job waits.
 */
export async function admitWaiting(d: AdmittingDeps, rows: JobRow[]) {
  const now = Date.now();
  if (rows.length === 0) return d.queue.idle(now);
  const holds = new Map<string, string>();
  const heldAs = new Map<string, string>();
  const credits = new Map<string, Promise<CreditsLeft>>();
  const ended = new Set<string>();
  for (const j of rows) {
    if (j.materialized) continue;
    if (j.scheduleTimeout && (now - j.createdAt.getTime()) / 1000 > j.scheduleTimeout) {
      ended.add(j.id);
      await d.move(
        j,
        {
          status: 'failed',
          reason: JOB_REASONS.scheduleTimeout,
          description: `The job could not be scheduled within ${j.scheduleTimeout} s (last reason: ${j.reason ?? 'none'})`,
        },
        { finishedAt: new Date() },
      );
      continue;
    }
    if (j.reason === JOB_REASONS.restarting && (await backingOff(d.ctx, j, now))) {
      holds.set(j.id, j.statusDescription ?? 'Restarting');
      heldAs.set(j.id, JOB_REASONS.restarting);
      continue;
    }
    const key = `${j.orgName}/${j.ownerId}`;
    if (!credits.has(key)) credits.set(key, creditsLeft(d.ctx.db, j.orgName, j.ownerId));
    const left = await credits.get(key)!;
    if (!left.ok) {
      holds.set(j.id, JOB_TEXTS.noCredits(left.who!));
      heldAs.set(j.id, JOB_REASONS.noCredits);
    }
  }
  const live = rows.filter((j) => !ended.has(j.id));
  const decision = d.queue.decide(await d.queue.input(live, holds, now));
  const byId = new Map(live.map((j) => [j.id, j]));
  for (const p of decision.preempt) d.preempt(byId.get(p.job)!, p.for, p.why);
  for (const a of decision.admit) await d.start(byId.get(a.job)!);
  for (const [id, w] of decision.waiting) {
    const j = byId.get(id)!;
    // A back-off keeps the restart's own words in the history.
    if (heldAs.get(id) === JOB_REASONS.restarting) continue;
    await record(d, j, w.reasons[0]!, heldAs.get(id));
  }
}

/**
 * A job that keeps failing is restarted after 1, 2, 4 … seconds, at most five minutes apart,
 * rather than once a pass (a crash loop's back-off).
 */
async function backingOff(ctx: AppContext, j: JobRow, now: number) {
  const last = await lastTransitionAt(ctx.db, j.id);
  const delay = Math.min(2 ** Math.max(0, j.restarts - 1), RESTART_BACKOFF_MAX_S) * 1000;
  return !!last && now - last.getTime() < delay;
}

function codeOf(r: WaitReason, held?: string) {
  switch (r.kind) {
    case 'held':
      return held ?? JOB_REASONS.scheduling;
    case 'jobs_cap':
      return JOB_REASONS.quotaExhausted;
    case 'quota':
      return JOB_REASONS.resourceQuota;
    case 'capacity':
      return JOB_REASONS.capacity;
    default:
      return JOB_REASONS.scheduling;
  }
}

/** The words before the figures: a history entry is written when the reason changes, not when
 * only its figures do (what is free moves with every job). */
const stem = (s: string | null) => (s ?? '').split(':')[0];

async function record(d: AdmittingDeps, j: JobRow, first: WaitReason, held?: string) {
  const reason = codeOf(first, held);
  const description = describeWait(first);
  if (j.reason === reason && stem(j.statusDescription) === stem(description)) return;
  await d.move(j, {
    status: j.status === 'suspended' ? 'suspended' : 'pending',
    reason,
    description,
  });
}

/** Why the runtime runs no job of several workers (`workers` of them, when asked for). */
export function workersRefusal(driver: RuntimeDriver, workers?: number): string | undefined {
  if (driver.gangs === true) return undefined;
  const asked = workers ? ` (nodes: ${workers})` : '';
  return (
    driver.gangs ??
    `The ${driver.name} runtime does not run jobs of several workers yet${asked}; see docs/jobs.md "Distributed jobs"`
  );
}

/**
 * Refuses a job bigger than every node its preset may use, even with the node empty, or a gang
 * whose workers the cluster could never hold at once: it would wait for ever. Nodes are the
 * runtime's own (a Slurm node that is down does not count).
 */
export async function refuseNeverFitting(
  ctx: AppContext,
  driver: RuntimeDriver,
  job: Pick<JobRow, 'container' | 'clusterName' | 'presetName'>,
) {
  const workers = workersOf(job as JobRow);
  // A runtime that cannot run a gang at all says so before its size is weighed.
  const refused = workers > 1 ? workersRefusal(driver, workers) : undefined;
  if (refused) {
    throw new HttpError('validation', refused, [
      { path: 'nodes', message: 'Not supported by this runtime' },
    ]);
  }
  const nodes = schedNodes(await driver.nodes());
  if (!nodes.length) return;
  const requests = requestsOf(containerOf(job as JobRow));
  const known = new Set(nodes.flatMap((n) => n.pools ?? [n.pool]));
  const named = (await presetPoolMap(ctx.db)).get(`${job.clusterName}/${job.presetName}`) ?? [];
  const pools = named.filter((p) => known.has(p));
  if (!neverFits(requests, pools.length ? pools : undefined, nodes, workers)) return;
  const largest = nodes.filter((n) => mayUse(n, pools));
  if (workers > 1 && !neverFits(requests, pools.length ? pools : undefined, nodes)) {
    const most = workersFitting(
      requests,
      workers,
      largest.map((n) => n.capacity),
      largest.map(perJobOn),
    );
    throw new HttpError(
      'validation',
      `The job can never start: its ${workers} workers each need ${amounts(requests)}, and the nodes it may use hold at most ${most} of them at once`,
      [{ path: 'nodes', message: `At most ${most} workers of this size fit` }],
    );
  }
  throw new HttpError(
    'validation',
    `The job can never start: it needs ${amounts(requests)}, and the largest node it may use has ${amounts(
      largestOf(largest.map((n) => n.capacity)),
    )}`,
  );
}

const amounts = (r: ResourceAmounts) =>
  QUOTA_RESOURCES.filter((k) => (r[k] ?? 0) > 0 || k === 'cpu' || k === 'memory')
    .map((k) => formatAmount(k, r[k] ?? 0))
    .join(', ');

/** Per resource, the most any one node has. */
function largestOf(list: ResourceAmounts[]): ResourceAmounts {
  const out: ResourceAmounts = {};
  for (const r of list) for (const k of QUOTA_RESOURCES) out[k] = Math.max(out[k] ?? 0, r[k] ?? 0);
  return out;
}
