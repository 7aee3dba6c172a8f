import type { JobContainer, JobScheduling } from '@orrery/contract';
import { describeWaits, isFinalJobStatus, type JobStatus } from '@orrery/contract';
import type { Db } from '../../db/client.js';
import type { NodeCapacity, RuntimeDriver } from '../../runtime/driver.js';
import {
  decide,
  mayUse,
  type Decision,
  type SchedNode,
  type SchedulerInput,
} from '../scheduler/decide.js';
import { add, decay, scale, subtract, type Resources } from '../scheduler/resources.js';
import { placeWorkers } from '../scheduler/place.js';
import { clusterQuotas } from '../quotas/store.js';
import { presetPoolMap } from '../clusters/store.js';
import { limitsOf } from './resources.js';
import { type JobRow } from './store.js';
import { containerOf, workersOf } from './container.js';

/**
 * What the scheduler's pure core (modules/scheduler) is given from the jobs of this runtime, and
 * what it decided last: the jobs service carries decisions out, the APIs read why jobs wait
 * (docs/scheduling.md). Organizations and projects are keyed with their cluster in front
 * (`cluster/org`, `cluster/org/project`), since one runtime's nodes serve every cluster using it.
 */

const PRIORITY: Record<string, number> = { low: 0, normal: 1, high: 2 };

/** What a job asks of a node: its preset's CPU, memory and GPUs. */
export function requestsOf(c: JobContainer): Resources {
  const l = limitsOf(c);
  return {
    cpu: l.cpu,
    memory: l.memory,
    ...(l.gpu ? { [`${l.gpu.vendor}_gpu`]: l.gpu.count } : {}),
  };
}

export function schedNode(n: NodeCapacity): SchedNode {
  const capacity: Resources = { cpu: n.cpu, memory: n.memory };
  for (const [vendor, count] of Object.entries(n.gpus ?? {}))
    if (count) capacity[`${vendor as 'nvidia'}_gpu`] = count;
  return {
    name: n.name,
    pool: n.pool,
    capacity,
    ...(n.workersPerJob ? { workersPerJob: n.workersPerJob } : {}),
  };
}

/**
 * The runtime's nodes for the scheduler: a node reported once per pool it is in (a Slurm node in
 * two partitions) is one node, counted once, in each of its pools.
 */
export function schedNodes(reported: NodeCapacity[]): SchedNode[] {
  const byName = new Map<string, SchedNode>();
  for (const n of reported) {
    const known = byName.get(n.name);
    if (!known) byName.set(n.name, { ...schedNode(n), pools: [n.pool] });
    else if (!known.pools!.includes(n.pool)) known.pools!.push(n.pool);
  }
  return [...byName.values()];
}

export const orgKey = (j: Pick<JobRow, 'clusterName' | 'orgName'>) =>
  `${j.clusterName}/${j.orgName}`;

export interface QueueOptions {
  halfLifeMs: number;
  starvationMs: number;
}

/** How long an idle server's passes reuse the runtime's nodes (a node added shows by then). */
const IDLE_NODES_MS = 60_000;

export class JobQueue {
  /** Recent use, fading with the half-life: what the fair share compares. */
  private readonly history = new Map<string, Resources>();
  private foldedAt = 0;
  /** The node each admitted job was counted on; after a restart jobs are placed again. */
  private readonly placed = new Map<string, string[]>();
  private last: { decision: Decision; input: SchedulerInput } | null = null;
  /** When the runtime's nodes were last asked (idle passes reuse them for a while). */
  private nodesAt = 0;

  constructor(
    private readonly db: Db,
    private readonly driver: RuntimeDriver,
    private readonly opts: QueueOptions,
  ) {}

  /** The pass's input: every node, the running jobs and the waiting ones with their holds. */
  async input(rows: JobRow[], holds: Map<string, string>, now: number): Promise<SchedulerInput> {
    const nodes = schedNodes(await this.driver.nodes());
    this.nodesAt = now;
    const presetPools = await presetPoolMap(this.db);
    const known = new Set(nodes.flatMap((n) => n.pools ?? [n.pool]));
    // The preset's pools this runtime has; none of them (a pool that only describes this one
    // machine, say) lets the job use any node.
    const poolsOf = (j: JobRow) => {
      const pools = (presetPools.get(`${j.clusterName}/${j.presetName}`) ?? []).filter((p) =>
        known.has(p),
      );
      return pools.length ? pools : undefined;
    };
    const base = (j: JobRow) => ({
      id: j.id,
      org: orgKey(j),
      project: j.projectName,
      priority: PRIORITY[j.priority] ?? 1,
      requests: requestsOf(containerOf(j)),
      preemptible: j.preemptible || j.schedulerEnabled,
      pools: poolsOf(j),
      ...(workersOf(j) > 1 ? { workers: workersOf(j) } : {}),
    });
    const free = new Map(nodes.map((n) => [n.name, { ...n.capacity }]));
    const running = rows
      .filter((j) => j.materialized && !isFinalJobStatus(j.status as JobStatus))
      .map((j) => {
        const job = base(j);
        const placed = this.placeOf(job, nodes, free);
        for (const node of placed) free.set(node, subtract(free.get(node) ?? {}, job.requests));
        const gang = placed.length > 1 ? { nodes: placed } : {};
        return {
          ...job,
          node: placed[0],
          ...gang,
          startedAt: (j.startedAt ?? j.createdAt).getTime(),
        };
      });
    const waiting = rows
      .filter((j) => !j.materialized)
      .map((j) => ({ ...base(j), createdAt: j.createdAt.getTime(), hold: holds.get(j.id) }));
    const clusters = new Set(rows.map((j) => j.clusterName));
    const input: SchedulerInput = {
      nodes,
      running,
      waiting,
      orgs: new Map(),
      projects: new Map(),
      history: this.history,
      now,
      starvationMs: this.opts.starvationMs,
    };
    for (const cluster of clusters) {
      const q = await clusterQuotas(this.db, cluster);
      for (const [org, p] of q.orgs)
        (input.orgs as Map<string, unknown>).set(`${cluster}/${org}`, p);
      for (const [key, p] of q.projects)
        (input.projects as Map<string, unknown>).set(`${cluster}/${key}`, p);
    }
    this.fold(running, now);
    return input;
  }

  /**
   * The nodes a running job's workers are counted on: where it was admitted, else where they fit
   * (a server restarted under it), else its pool's first node.
   */
  private placeOf(
    job: { id: string; requests: Resources; pools?: string[]; workers?: number },
    nodes: SchedNode[],
    free: Map<string, Resources>,
  ): string[] {
    const known = this.placed.get(job.id);
    if (known && known.every((n) => free.has(n))) return known;
    const allowed = nodes.filter((n) => mayUse(n, job.pools));
    const workers = job.workers ?? 1;
    const first = allowed[0]?.name ?? nodes[0]?.name ?? 'none';
    const placed =
      placeWorkers(job.requests, workers, allowed, (n) => free.get(n.name)!) ??
      Array<string>(workers).fill(first);
    this.placed.set(job.id, placed);
    return placed;
  }

  /** Folds what is held now into the fading record of use, per organization and project. */
  private fold(
    running: { org: string; project: string; requests: Resources; workers?: number }[],
    now: number,
  ) {
    const held = new Map<string, Resources>();
    for (const j of running)
      for (const k of [j.org, `${j.org}/${j.project}`])
        held.set(k, add(held.get(k) ?? {}, scale(j.requests, j.workers ?? 1)));
    const dt = this.foldedAt ? now - this.foldedAt : 0;
    this.foldedAt = now;
    for (const k of new Set([...this.history.keys(), ...held.keys()])) {
      const next = decay(this.history.get(k) ?? {}, held.get(k) ?? {}, dt, this.opts.halfLifeMs);
      if (Object.keys(next).length) this.history.set(k, next);
      else this.history.delete(k);
    }
  }

  /** One pass's decision, kept for the APIs until the next. */
  decide(input: SchedulerInput): Decision {
    const decision = decide(input);
    for (const a of decision.admit) this.placed.set(a.job, a.nodes ?? [a.node]);
    this.last = { decision, input };
    return decision;
  }

  /**
   * A pass with no unfinished job: nothing to decide, so neither the presets nor (for a minute)
   * the runtime's nodes are read again; the cluster's queue shows the nodes as last read, nothing
   * held, and recorded use keeps fading. An idle server's passes cost next to nothing.
   */
  async idle(now: number) {
    if (!this.last || now - this.nodesAt >= IDLE_NODES_MS) {
      this.decide(await this.input([], new Map(), now));
      return;
    }
    this.fold([], now);
    this.last = {
      decision: { admit: [], preempt: [], waiting: new Map() },
      input: { ...this.last.input, running: [], waiting: [], now },
    };
  }

  /** The jobs that ended or were handed back are forgotten. */
  forget(id: string) {
    this.placed.delete(id);
  }

  /** Where a waiting job stands and why, as last decided; null when it is not waiting. */
  scheduling(j: JobRow): JobScheduling {
    const w = j.materialized ? undefined : this.last?.decision.waiting.get(j.id);
    const reasons = w?.reasons ?? [];
    return {
      job_id: j.id,
      status: j.status,
      position: w?.position ?? null,
      reasons,
      message: reasons.length ? describeWaits(reasons) : null,
    };
  }

  position(id: string): number | undefined {
    return this.last?.decision.waiting.get(id)?.position;
  }

  /** The last pass's figures, for the cluster's queue. */
  lastInput(): SchedulerInput | null {
    return this.last?.input ?? null;
  }
}
