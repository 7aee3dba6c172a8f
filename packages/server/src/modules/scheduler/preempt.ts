import type { RunningJob, SchedNode, WaitingJob } from './decide.js';
import { add, fits, scale, subtract, type Resources } from './resources.js';
import { nodesOf, perJobOn, placeWorkers, workersFitting, workersOf } from './place.js';

/**
 * Preemption (decide.ts, docs/scheduling.md): which running jobs may give way to a waiting one,
 * and the fewest of them whose leaving lets all its workers (one, or a gang's) start at once.
 */

export type Why = 'reclaim' | 'priority';

/** What the rules need to know of where projects and organizations stand in the pass. */
export interface Standing {
  /** Whether any quota is set at all: without one, nothing runs on borrowed capacity. */
  anyQuota: boolean;
  /** Whether the job's project and organization stay within their nominal quotas with it. */
  deserves(job: WaitingJob): boolean;
  /** Whether the project or its organization holds more than its nominal quota of anything. */
  borrowing(j: { org: string; project: string }): boolean;
  /** Whether the organization holds more than its nominal quota of anything. */
  orgBorrowing(org: string): boolean;
}

/**
 * The running jobs that may give way to `job`, each with why: jobs on borrowed capacity (or of
 * the preemptible kind) of others when the job is within its nominal quota, and lower-priority
 * preemptible or borrowing work of its own project. Non-preemptible work within its quota is
 * never chosen, so that two projects never take capacity back and forth. The same rules hold
 * for a gang as for one worker: a gang is weighed by what all its workers ask for.
 */
export function mayGiveWay(
  job: WaitingJob,
  running: readonly RunningJob[],
  s: Standing,
): Map<RunningJob, Why> {
  const out = new Map<RunningJob, Why>();
  let reclaim: boolean | undefined;
  for (const v of running) {
    // Only preemptible work and work on borrowed capacity can ever give way.
    if (!v.preemptible && !(s.anyQuota && s.borrowing(v))) continue;
    if (v.project === job.project && v.org === job.org) {
      if (v.priority < job.priority && (v.preemptible || s.borrowing(v))) out.set(v, 'priority');
      continue;
    }
    reclaim ??= s.deserves(job);
    if (!reclaim) continue;
    const lender = v.org === job.org ? s.borrowing(v) : s.orgBorrowing(v.org);
    if (lender || v.preemptible) out.set(v, 'reclaim');
  }
  return out;
}

export interface Plan {
  victims: RunningJob[];
  /** Where the job's workers go once the victims have stopped, in rank order. */
  nodes: string[];
}

/**
 * The fewest, cheapest of `candidates` whose leaving lets every worker of `job` fit at once on
 * `nodes` (each given what is free there for it), or null when even all of them would not make
 * room: then nothing is stopped in vain. Step by step, the node where the fewest candidates
 * (then the lowest priorities, then the most recently started: the least work lost) make room
 * for one more worker gives them up, until the workers fit; then any victim the job turns out
 * not to need is spared, the costliest first. A victim that is a gang gives back every node its
 * workers hold. For one worker this is the cheapest node's fewest victims.
 */
export function preemptionPlan(
  job: WaitingJob,
  candidates: ReadonlyMap<RunningJob, Why>,
  nodes: SchedNode[],
  freeOf: (n: SchedNode) => Resources,
): Plan | null {
  if (!candidates.size) return null;
  const workers = workersOf(job);
  const usable = nodes.filter((n) => fits(job.requests, n.capacity));
  const free = new Map(usable.map((n) => [n.name, freeOf(n)]));
  // Each node's candidates, lowest priority first, then the most recently started.
  const on = new Map<string, RunningJob[]>();
  for (const v of candidates.keys())
    for (const node of new Set(nodesOf(v)))
      if (free.has(node)) (on.get(node) ?? on.set(node, []).get(node)!).push(v);
  for (const list of on.values())
    list.sort((a, b) => a.priority - b.priority || b.startedAt - a.startedAt);

  const most = new Map(usable.map((n) => [n.name, perJobOn(n)]));
  const fitOn = (f: Resources, node: string) =>
    workersFitting(job.requests, workers, [f], [most.get(node)!]);
  const fitting = () =>
    workersFitting(job.requests, workers, [...free.values()], [...most.values()]);
  const release = (v: RunningJob, sign: 1 | -1) => {
    for (const node of nodesOf(v)) {
      const f = free.get(node);
      if (f) free.set(node, (sign > 0 ? add : subtract)(f, v.requests));
    }
  };
  const chosen = new Set<RunningJob>();
  while (fitting() < workers) {
    let best: { victims: RunningJob[]; cost: number; started: number } | undefined;
    for (const { name: node } of usable) {
      const list = on.get(node);
      if (!list) continue;
      let f = free.get(node)!;
      const before = fitOn(f, node);
      const victims: RunningJob[] = [];
      for (const v of list) {
        if (chosen.has(v)) continue;
        victims.push(v);
        f = add(f, scale(v.requests, nodesOf(v).filter((x) => x === node).length));
        if (fitOn(f, node) > before) break;
      }
      if (!victims.length || fitOn(f, node) <= before) continue;
      // Fewest victims, then the lowest priorities, then the least time run.
      const cost = victims.reduce((c, v) => c + 1 + v.priority / 10, 0);
      const started = Math.min(...victims.map((v) => v.startedAt));
      if (!best || cost < best.cost || (cost === best.cost && started > best.started))
        best = { victims, cost, started };
    }
    if (!best) return null;
    for (const v of best.victims) {
      chosen.add(v);
      release(v, +1);
    }
  }
  for (const v of [...chosen].reverse()) {
    release(v, -1);
    if (fitting() >= workers) chosen.delete(v);
    else release(v, +1);
  }
  const placed = placeWorkers(job.requests, workers, usable, (n) => free.get(n.name)!);
  return placed && { victims: [...chosen], nodes: placed };
}
