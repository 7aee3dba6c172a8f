import type { WaitReason as ContractWaitReason } from '@orrery/contract';
import TinyQueue from 'tinyqueue';
import {
  RESOURCES,
  add,
  dominantShare,
  fits,
  scale,
  shortOf,
  subtract,
  sum,
  type ResourceName,
  type Resources,
} from './resources.js';
import { weightsOf, type Quota } from './weights.js';
import { byShare, queueOrder, shapeOf, type Entry, type Queue } from './order.js';
import { placeWorkers, workersFitting } from './place.js';

/**
 * One admission pass over every waiting job of a cluster: which jobs start now and where, which
 * running jobs give way to whom, and why each other job waits and where it stands. A pure
 * function of what the cluster holds, so that the rules are tested on simulated capacity and the
 * service only loads the figures and carries the decision out (docs/scheduling.md).
 */

export interface SchedNode {
  name: string;
  pool: string;
  /** Every pool the node is in, where more than one (a Slurm node in two partitions). */
  pools?: string[];
  capacity: Resources;
}

/** Whether a job limited to `pools` (none: any) may use the node. */
export const mayUse = (n: SchedNode, pools: string[] | undefined) =>
  !pools?.length || pools.some((p) => p === n.pool || !!n.pools?.includes(p));

export interface OrgPolicy extends Quota {
  /** The organization's hard cap on running jobs (Apolo's `total_running_jobs`). */
  maxRunningJobs?: number;
}

export interface JobBase {
  id: string;
  org: string;
  project: string;
  /** 0 low, 1 normal, 2 high. */
  priority: number;
  requests: Resources;
  /** On a preset of the preemptible kind. */
  preemptible: boolean;
  /** The node pools its preset allows; none means any. */
  pools?: string[];
  /**
   * A gang's workers (docs/jobs.md "Distributed jobs"), each asking for `requests` on a node
   * where it fits whole: admitted all together or not at all. Absent: one.
   */
  workers?: number;
}
export interface RunningJob extends JobBase {
  /** Its (first) worker's node. */
  node: string;
  /** A gang's: each worker's node, in rank order (several may share one). */
  nodes?: string[];
  startedAt: number;
}
export interface WaitingJob extends JobBase {
  createdAt: number;
  /** A reason outside the scheduler's figures (credits, a restart's back-off). */
  hold?: string;
}

export interface SchedulerInput {
  nodes: SchedNode[];
  running: RunningJob[];
  waiting: WaitingJob[];
  orgs?: ReadonlyMap<string, OrgPolicy>;
  /** Keyed `org/project`. */
  projects?: ReadonlyMap<string, Quota>;
  /** Recent use that decays (resources.ts `decay`), keyed `org` and `org/project`. */
  history?: ReadonlyMap<string, Resources>;
  now: number;
  /** A job waiting this long reserves a node for itself. */
  starvationMs: number;
}

/** Why a job waits: the contract's wire form, which the APIs answer as it is. */
export type WaitReason = Exclude<ContractWaitReason, { kind: 'never_fits' }>;

export interface Decision {
  /** `nodes`: a gang's, one per worker in rank order (`node` is the first). */
  admit: { job: string; node: string; nodes?: string[]; borrowing: boolean }[];
  preempt: { job: string; for: string; why: 'reclaim' | 'priority' }[];
  waiting: Map<string, { position: number; reasons: WaitReason[] }>;
}

const projectKey = (j: { org: string; project: string }) => `${j.org}/${j.project}`;
const workersOf = (j: JobBase) => j.workers ?? 1;
/** What the job holds in all: its quota, fair share and borrowing count the whole gang. */
const totalOf = (j: JobBase) => scale(j.requests, workersOf(j));
const nodesOf = (j: RunningJob) => j.nodes ?? [j.node];

export function decide(input: SchedulerInput): Decision {
  return new Pass(input).run();
}

/**
 * Where each organization (keyed `org`) and project (`org/project`) stands: what its running
 * jobs hold, and its weighted share of recent use, below 1 meaning below its fair share.
 */
export function standings(input: SchedulerInput): Map<string, { used: Resources; share: number }> {
  return new Pass(input).standings();
}

/**
 * Whether a job could ever start: its workers (one unless a gang) each on a node of a pool it
 * may use, with the cluster empty.
 */
export function neverFits(
  requests: Resources,
  pools: string[] | undefined,
  nodes: SchedNode[],
  workers = 1,
) {
  const allowed = nodes.filter((n) => mayUse(n, pools));
  return placeWorkers(requests, workers, allowed, (n) => n.capacity) === null;
}

class Pass {
  private readonly total: Resources;
  private readonly free = new Map<string, Resources>();
  private readonly pool = new Map<string, string>();
  private readonly use = new Map<string, Resources>();
  private readonly count = new Map<string, number>();
  private readonly running: RunningJob[];
  /** Nodes held for a job that waited too long: nothing else starts there this pass. */
  private readonly reserved = new Map<string, string>();
  private readonly orgWeight: Map<string, number>;
  private readonly projectWeight = new Map<string, number>();
  private readonly decision: Decision = { admit: [], preempt: [], waiting: new Map() };
  /** Shares change only when a job is held or let go: kept until then (one pass decides
   * thousands of jobs, docs/scheduling.md gives the figures). */
  private readonly shares = new Map<string, number>();
  private readonly capacityReasons = new Map<string, WaitReason>();
  private readonly orgPools = new Map<string, Resources>();
  private readonly anyQuota: boolean;
  private readonly heap = new TinyQueue<Entry>([], byShare);
  private readonly orgQueues = new Map<string, Queue[]>();
  /** Organizations whose shares changed since their projects were placed in the heap. */
  private readonly moved = new Set<string>();

  constructor(private readonly input: SchedulerInput) {
    this.total = sum(input.nodes.map((n) => n.capacity));
    for (const n of input.nodes) {
      this.free.set(n.name, { ...n.capacity });
      this.pool.set(n.name, n.pool);
    }
    this.running = [...input.running];
    this.anyQuota = [...(input.orgs?.values() ?? []), ...(input.projects?.values() ?? [])].some(
      (q) => !!q.nominal,
    );
    for (const j of this.running) this.hold(j, nodesOf(j), +1);
    const orgs = new Set([...input.waiting, ...input.running].map((j) => j.org));
    this.orgWeight = weightsOf([...orgs], (o) => input.orgs?.get(o), this.total);
    for (const org of orgs) {
      const projects = new Set(
        [...input.waiting, ...input.running].filter((j) => j.org === org).map(projectKey),
      );
      const within = this.orgPool(org);
      for (const [k, w] of weightsOf([...projects], (p) => input.projects?.get(p), within))
        this.projectWeight.set(k, w);
    }
  }

  standings() {
    const out = new Map<string, { used: Resources; share: number }>();
    for (const [org, w] of this.orgWeight)
      out.set(org, { used: this.use.get(org) ?? {}, share: this.share(org, this.total, w) });
    for (const [key, w] of this.projectWeight) {
      const pool = this.orgPool(key.slice(0, key.lastIndexOf('/')));
      out.set(key, { used: this.use.get(key) ?? {}, share: this.share(key, pool, w) });
    }
    return out;
  }

  run(): Decision {
    // Each project's queue in its order, read from its head; the projects in a heap ordered by
    // their organization's share, then their own, then their head job (nextProject).
    const projects = new Map<string, Queue>();
    for (const j of this.input.waiting) {
      const k = projectKey(j);
      const p =
        projects.get(k) ??
        projects.set(k, { key: k, org: j.org, queue: [], at: 0, stamp: 0 }).get(k)!;
      p.queue.push(j);
    }
    for (const p of projects.values()) {
      p.queue.sort(queueOrder);
      const of = this.orgQueues.get(p.org) ?? this.orgQueues.set(p.org, []).get(p.org)!;
      of.push(p);
      this.heap.push(this.entry(p));
    }
    const order: WaitingJob[] = [];
    for (;;) {
      const next = this.nextProject();
      if (!next) break;
      const job = next.queue[next.at++];
      if (next.at < next.queue.length) this.heap.push(this.entry(next));
      const reasons = this.consider(job);
      if (reasons) {
        order.push(job);
        this.decision.waiting.set(job.id, { position: order.length, reasons });
      }
    }
    for (const w of this.decision.waiting.values())
      if (w.position > 1) w.reasons.push({ kind: 'behind', ahead: w.position - 1 });
    return this.decision;
  }

  /** A project's place in the heap, as its shares and head job are now. */
  private entry(p: Queue): Entry {
    const org = this.share(p.org, this.total, this.orgWeight.get(p.org) ?? 1);
    const share = this.share(p.key, this.orgPool(p.org), this.projectWeight.get(p.key) ?? 1);
    return { p, stamp: p.stamp, org, share, head: p.queue[p.at]! };
  }

  /**
   * The project furthest below its fair share, inside the organization furthest below its own;
   * between equals, the one whose next job comes first. Shares change only when a job is held
   * or let go (hold): then the projects of that organization take a new place in the heap and
   * their old entries are passed over, so that a pass over thousands of jobs compares each few.
   */
  private nextProject(): Queue | undefined {
    for (const org of this.moved) {
      for (const p of this.orgQueues.get(org) ?? []) {
        if (p.at >= p.queue.length) continue;
        p.stamp++;
        this.heap.push(this.entry(p));
      }
    }
    this.moved.clear();
    for (;;) {
      const top = this.heap.pop();
      if (!top) return undefined;
      if (top.stamp === top.p.stamp && top.head === top.p.queue[top.p.at]) {
        top.p.stamp++;
        return top.p;
      }
    }
  }

  private share(key: string, pool: Resources, weight: number) {
    let share = this.shares.get(key);
    if (share === undefined) {
      const used = add(this.input.history?.get(key) ?? {}, this.use.get(key) ?? {});
      share = dominantShare(used, pool) / Math.max(weight, 1e-9);
      this.shares.set(key, share);
    }
    return share;
  }

  /** What an organization's projects share: its nominal quota where set, else the cluster. */
  private orgPool(org: string): Resources {
    let pool = this.orgPools.get(org);
    if (!pool) {
      const nominal = this.input.orgs?.get(org)?.nominal ?? {};
      pool = { ...this.total };
      for (const r of RESOURCES) if (nominal[r] !== undefined) pool[r] = nominal[r];
      this.orgPools.set(org, pool);
    }
    return pool;
  }

  /** Admits the job, or says why it waits. */
  private consider(job: WaitingJob): WaitReason[] | null {
    if (job.hold) return [{ kind: 'held', message: job.hold }];
    const cap = this.input.orgs?.get(job.org)?.maxRunningJobs;
    const running = this.count.get(job.org) ?? 0;
    if (cap !== undefined && running >= cap)
      return [{ kind: 'jobs_cap', used: running, limit: cap }];
    const quota = this.quotaReason(job);
    if (quota) return [quota];
    // A job of the same shape found no node since the last change: neither will this one.
    const shape = shapeOf(job);
    const nodes = this.capacityReasons.has(shape) ? null : this.place(job);
    if (nodes) {
      this.hold(job, nodes, +1);
      const gang = workersOf(job) > 1 ? { nodes } : {};
      this.decision.admit.push({
        job: job.id,
        node: nodes[0],
        ...gang,
        borrowing: this.borrowing(job),
      });
      return null;
    }
    // A gang neither preempts nor reserves (docs/jobs.md): it waits, holding nothing, until all
    // its workers fit at once.
    const plan = workersOf(job) > 1 ? null : this.preemption(job);
    if (plan) {
      for (const v of plan.victims) {
        this.hold(v, nodesOf(v), -1);
        this.running.splice(this.running.indexOf(v), 1);
        this.decision.preempt.push({ job: v.id, for: job.id, why: plan.why(v) });
      }
      // What the victims free is the job's: held for it until they have stopped.
      this.hold(job, [plan.node], +1);
      return [{ kind: 'preempting', victims: plan.victims.map((v) => v.id) }];
    }
    const reasons: WaitReason[] = [this.capacityReason(job, shape)];
    if (workersOf(job) === 1 && this.input.now - job.createdAt >= this.input.starvationMs) {
      const node = this.reserve(job);
      if (node) reasons.push({ kind: 'reserving', node });
    }
    return reasons;
  }

  /** Counts the job on `nodes` (one per worker) and against its project and organization. */
  private hold(j: JobBase, nodes: string[], sign: 1 | -1) {
    const change = sign > 0 ? subtract : add;
    for (const node of nodes) this.free.set(node, change(this.free.get(node) ?? {}, j.requests));
    const more = sign > 0 ? add : subtract;
    const total = totalOf(j);
    for (const k of [j.org, projectKey(j)]) {
      this.use.set(k, more(this.use.get(k) ?? {}, total));
      this.shares.delete(k);
    }
    this.count.set(j.org, (this.count.get(j.org) ?? 0) + sign);
    this.capacityReasons.clear();
    this.moved.add(j.org);
  }

  private quotaReason(job: WaitingJob): WaitReason | null {
    const scopes = [
      ['project', projectKey(job), this.input.projects?.get(projectKey(job))],
      ['organization', job.org, this.input.orgs?.get(job.org)],
    ] as const;
    for (const [scope, key, quota] of scopes) {
      const used = this.use.get(key) ?? {};
      const total = totalOf(job);
      for (const r of RESOURCES) {
        const nominal = quota?.nominal?.[r];
        const requested = total[r] ?? 0;
        if (nominal === undefined || requested === 0) continue;
        const borrowing = quota?.borrowingLimit?.[r];
        if ((used[r] ?? 0) + requested > nominal + (borrowing ?? Infinity) + 1e-9)
          return {
            kind: 'quota',
            scope,
            resource: r,
            used: used[r] ?? 0,
            requested,
            nominal,
            borrowing_limit: borrowing ?? null,
          };
      }
    }
    return null;
  }

  /** Whether the project or its organization holds more than its nominal quota of anything. */
  private borrowing(j: { org: string; project: string }) {
    const over = (used: Resources | undefined, nominal: Resources | undefined) =>
      RESOURCES.some((r) => nominal?.[r] !== undefined && (used?.[r] ?? 0) > nominal[r]! + 1e-9);
    return (
      over(this.use.get(projectKey(j)), this.input.projects?.get(projectKey(j))?.nominal) ||
      over(this.use.get(j.org), this.input.orgs?.get(j.org)?.nominal)
    );
  }

  /** Whether the job's project and organization stay within their nominal quotas with it. */
  private deserves(job: WaitingJob) {
    const project = this.input.projects?.get(projectKey(job))?.nominal;
    const org = this.input.orgs?.get(job.org)?.nominal;
    if (!project && !org) return false;
    const within = (key: string, nominal: Resources | undefined) => {
      const after = add(this.use.get(key) ?? {}, totalOf(job));
      return RESOURCES.every(
        (r) => nominal?.[r] === undefined || (after[r] ?? 0) <= nominal[r]! + 1e-9,
      );
    };
    return within(projectKey(job), project) && within(job.org, org);
  }

  private allowed(job: JobBase) {
    return this.input.nodes.filter((n) => mayUse(n, job.pools) && !this.reserved.has(n.name));
  }

  /** Each worker's node (placeWorkers), or null when the job's workers do not all fit now. */
  private place(job: WaitingJob): string[] | null {
    return placeWorkers(job.requests, workersOf(job), this.allowed(job), (n) =>
      this.free.get(n.name)!,
    );
  }

  /**
   * The fewest, cheapest running jobs whose leaving lets the job start on one node: jobs on
   * borrowed capacity (or of the preemptible kind) of others when the job is within its nominal
   * quota, and lower-priority preemptible work of its own project. Non-preemptible work within
   * its quota is never chosen, so that two projects never take capacity back and forth.
   */
  private preemption(job: WaitingJob) {
    const reclaim = this.deserves(job);
    const why = (v: RunningJob): 'reclaim' | 'priority' | null => {
      if (projectKey(v) === projectKey(job)) {
        return v.priority < job.priority && (v.preemptible || this.borrowing(v))
          ? 'priority'
          : null;
      }
      if (!reclaim) return null;
      const lender = v.org === job.org ? this.borrowing(v) : this.orgBorrowing(v.org);
      return lender || v.preemptible ? 'reclaim' : null;
    };
    // Only preemptible work and work on borrowed capacity can ever give way.
    const reasons = new Map<RunningJob, 'reclaim' | 'priority'>();
    for (const v of this.running) {
      const r = v.preemptible || (this.anyQuota && this.borrowing(v)) ? why(v) : null;
      if (r) reasons.set(v, r);
    }
    if (!reasons.size) return null;
    const open = [...reasons.keys()];
    let best: { node: string; victims: RunningJob[]; cost: number; started: number } | undefined;
    for (const n of this.allowed(job)) {
      if (!fits(job.requests, n.capacity)) continue;
      const candidates = open
        .filter((v) => nodesOf(v).includes(n.name))
        // Lowest priority first, then the most recently started: the least work is lost.
        .sort((a, b) => a.priority - b.priority || b.startedAt - a.startedAt);
      let free = this.free.get(n.name)!;
      const victims: RunningJob[] = [];
      for (const v of candidates) {
        if (fits(job.requests, free)) break;
        victims.push(v);
        // A gang gives back what each of its workers on this node holds (and all its others).
        free = add(free, scale(v.requests, nodesOf(v).filter((x) => x === n.name).length));
      }
      if (!victims.length || !fits(job.requests, free)) continue;
      // Fewest victims, then the lowest priorities, then the least time run.
      const cost = victims.reduce((c, v) => c + 1 + v.priority / 10, 0);
      const started = Math.min(...victims.map((v) => v.startedAt));
      if (!best || cost < best.cost || (cost === best.cost && started > best.started))
        best = { node: n.name, victims, cost, started };
    }
    return best ? { ...best, why: (v: RunningJob) => reasons.get(v)! } : null;
  }

  private orgBorrowing(org: string) {
    const nominal = this.input.orgs?.get(org)?.nominal;
    const used = this.use.get(org) ?? {};
    return RESOURCES.some((r) => nominal?.[r] !== undefined && (used[r] ?? 0) > nominal[r]! + 1e-9);
  }

  private capacityReason(job: WaitingJob, key: string): WaitReason {
    // Jobs of one preset wait for the same reason: said once until something is held or freed.
    const known = this.capacityReasons.get(key);
    if (known) return known;
    const reason = this.describeCapacity(job);
    this.capacityReasons.set(key, reason);
    return reason;
  }

  private describeCapacity(job: WaitingJob): WaitReason {
    const nodes = this.input.nodes.filter((n) => mayUse(n, job.pools));
    const free = nodes
      .map((n) => ({ node: n.name, pool: n.pool, free: this.free.get(n.name)! }))
      .sort((a, b) => dominantShare(b.free, this.total) - dominantShare(a.free, this.total))
      .slice(0, 5);
    const short = new Set<ResourceName>();
    for (const n of nodes)
      for (const r of shortOf(job.requests, this.free.get(n.name)!)) short.add(r);
    const workers = workersOf(job);
    const frees = nodes.map((n) => this.free.get(n.name)!);
    const fitting = workers > 1 ? workersFitting(job.requests, workers, frees) : 0;
    const gang = workers > 1 ? { workers, fitting } : {};
    return { kind: 'capacity', short: RESOURCES.filter((r) => short.has(r)), free, ...gang };
  }

  /** The node closest to fitting the job is kept for it: nothing else starts there meanwhile. */
  private reserve(job: WaitingJob): string | undefined {
    let best: { node: string; closeness: number } | undefined;
    for (const n of this.allowed(job)) {
      if (!fits(job.requests, n.capacity)) continue;
      const free = this.free.get(n.name)!;
      const closeness = Math.min(
        ...RESOURCES.filter((r) => (job.requests[r] ?? 0) > 0).map(
          (r) => (free[r] ?? 0) / job.requests[r]!,
        ),
      );
      if (!best || closeness > best.closeness) best = { node: n.name, closeness };
    }
    if (best) this.reserved.set(best.node, job.id);
    return best?.node;
  }
}
