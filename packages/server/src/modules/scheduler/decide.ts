import type { WaitReason as ContractWaitReason } from '@orrery/contract';
import TinyQueue from 'tinyqueue';
import {
  RESOURCES,
  add,
  dominantShare,
  scale,
  shortOf,
  subtract,
  sum,
  type ResourceName,
  type Resources,
} from './resources.js';
import { weightsOf, type Quota } from './weights.js';
import { byShare, queueOrder, shapeOf, type Entry, type Queue } from './order.js';
import { nodesOf, perJobOn, placeWorkers, workersFitting, workersOf } from './place.js';
import { mayGiveWay, preemptionPlan, type Standing } from './preempt.js';
import { reservation } from './reserve.js';

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
  /** At most this many workers of one job here (the runtime's rule); absent: as many as fit. */
  workersPerJob?: number;
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
  /** A job waiting this long reserves the nodes it needs (reserve.ts). */
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
/** What the job holds in all: its quota, fair share and borrowing count the whole gang. */
const totalOf = (j: JobBase) => scale(j.requests, workersOf(j));

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
  /** For the preemption rules (preempt.ts). */
  private readonly standing: Standing;
  /** Whether any running job may ever give way: preemptible, or borrowing under a quota. */
  private readonly preemptible: boolean;
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
    this.standing = {
      anyQuota: this.anyQuota,
      deserves: (j) => this.deserves(j),
      borrowing: (j) => this.borrowing(j),
      orgBorrowing: (org) => this.orgBorrowing(org),
    };
    for (const j of this.running) this.hold(j, nodesOf(j), +1);
    this.preemptible = this.anyQuota || this.running.some((j) => j.preemptible);
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
    // Work that may give way does so only when all the job's workers then fit at once; the job
    // starts in a later pass, once the victims have stopped.
    const candidates = this.preemptible ? mayGiveWay(job, this.running, this.standing) : null;
    const plan =
      !!candidates?.size &&
      preemptionPlan(job, candidates, this.allowed(job), (n) => this.free.get(n.name)!);
    if (plan && this.onlyBorrowed(plan.victims)) {
      for (const v of plan.victims) {
        this.hold(v, nodesOf(v), -1);
        this.running.splice(this.running.indexOf(v), 1);
        this.decision.preempt.push({ job: v.id, for: job.id, why: candidates!.get(v)! });
      }
      // What the victims free is the job's: held for it until they have stopped.
      this.hold(job, plan.nodes, +1);
      return [{ kind: 'preempting', victims: plan.victims.map((v) => v.id) }];
    }
    const reasons: WaitReason[] = [this.capacityReason(job, shape)];
    if (this.input.now - job.createdAt >= this.input.starvationMs) {
      const nodes = this.allowed(job);
      const kept = nodes.length ? reservation(job, nodes, (n) => this.free.get(n.name)!) : null;
      for (const node of kept ?? []) this.reserved.set(node, job.id);
      if (kept) {
        const gang = workersOf(job) > 1 ? { nodes: kept, workers: workersOf(job) } : {};
        reasons.push({ kind: 'reserving', node: kept[0], ...gang });
      }
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
   * Whether the victims that are not preemptible (they give way because they run on borrowed
   * capacity) take from no project or organization more than it borrows: a large job, a gang
   * above all, must not bring a lender below its nominal quota, where its work is never
   * preempted.
   */
  private onlyBorrowed(victims: RunningJob[]) {
    const taken = new Map<string, { quota: Quota | undefined; total: Resources }>();
    for (const v of victims) {
      if (v.preemptible) continue;
      const scopes = [
        [v.org, this.input.orgs?.get(v.org)],
        [projectKey(v), this.input.projects?.get(projectKey(v))],
      ] as const;
      for (const [key, quota] of scopes)
        taken.set(key, { quota, total: add(taken.get(key)?.total ?? {}, totalOf(v)) });
    }
    for (const [key, { quota, total }] of taken) {
      const used = this.use.get(key) ?? {};
      for (const r of RESOURCES) {
        const nominal = quota?.nominal?.[r];
        if (nominal === undefined || (used[r] ?? 0) <= nominal + 1e-9) continue;
        if ((used[r] ?? 0) - (total[r] ?? 0) < nominal - 1e-9) return false;
      }
    }
    return true;
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
    const fitting =
      workers > 1 ? workersFitting(job.requests, workers, frees, nodes.map(perJobOn)) : 0;
    const gang = workers > 1 ? { workers, fitting } : {};
    return { kind: 'capacity', short: RESOURCES.filter((r) => short.has(r)), free, ...gang };
  }
}
