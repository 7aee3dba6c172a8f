import { describe, expect, it } from 'vitest';
import {
  decide,
  neverFits,
  standings,
  type RunningJob,
  type SchedNode,
  type SchedulerInput,
  type WaitingJob,
} from './decide.js';
import { decay } from './resources.js';

// Simulated capacity: the pure core decides from figures; no runtime is involved here.
const GPU_NODE = (name: string, gpus = 4): SchedNode => ({
  name,
  pool: 'gpu',
  capacity: { cpu: 32, memory: 256e9, nvidia_gpu: gpus },
});
const gpuJob = (id: string, org: string, project: string, at: number, gpus = 1) =>
  ({
    id,
    org,
    project,
    priority: 1,
    requests: { cpu: 4, memory: 16e9, nvidia_gpu: gpus },
    preemptible: false,
    createdAt: at,
  }) satisfies WaitingJob;
const running = (j: WaitingJob, node: string, startedAt = j.createdAt): RunningJob => ({
  ...j,
  node,
  startedAt,
});
const base = (over: Partial<SchedulerInput>): SchedulerInput => ({
  nodes: [GPU_NODE('n1'), GPU_NODE('n2')],
  running: [],
  waiting: [],
  now: 1_000_000,
  starvationMs: 3_600_000,
  ...over,
});
const admittedBy = (d: ReturnType<typeof decide>, jobs: WaitingJob[]) => {
  const byId = new Map(jobs.map((j) => [j.id, j]));
  const count: Record<string, number> = {};
  for (const a of d.admit) {
    const p = byId.get(a.job)!.project;
    count[p] = (count[p] ?? 0) + 1;
  }
  return count;
};

describe('the scheduler core', () => {
  it('keeps a GPU job waiting while every GPU is taken, saying which resource is short', () => {
    const busy = [0, 1, 2, 3, 4, 5, 6, 7].map((i) =>
      running(gpuJob(`r${i}`, 'a', 'x', i), i < 4 ? 'n1' : 'n2'),
    );
    const d = decide(base({ running: busy, waiting: [gpuJob('w', 'b', 'y', 10)] }));
    expect(d.admit).toEqual([]);
    const reason = d.waiting.get('w')!.reasons[0];
    expect(reason).toMatchObject({ kind: 'capacity', short: ['nvidia_gpu'] });
    // One GPU frees: the job starts there.
    const after = decide(base({ running: busy.slice(1), waiting: [gpuJob('w', 'b', 'y', 10)] }));
    expect(after.admit).toEqual([{ job: 'w', node: 'n1', borrowing: false }]);
  });

  it('shares the GPUs between two projects instead of first come, first served', () => {
    const early = Array.from({ length: 20 }, (_, i) => gpuJob(`x${i}`, 'a', 'x', i));
    const late = Array.from({ length: 20 }, (_, i) => gpuJob(`y${i}`, 'a', 'y', 100 + i));
    const d = decide(base({ waiting: [...early, ...late] }));
    expect(admittedBy(d, [...early, ...late])).toEqual({ x: 4, y: 4 });
  });

  it('splits by the nominal quotas of organizations, and by recent use that decays', () => {
    const a = Array.from({ length: 10 }, (_, i) => gpuJob(`a${i}`, 'a', 'p', i));
    const b = Array.from({ length: 10 }, (_, i) => gpuJob(`b${i}`, 'b', 'p', i));
    const orgs = new Map([
      ['a', { nominal: { nvidia_gpu: 6 } }],
      ['b', { nominal: { nvidia_gpu: 2 } }],
    ]);
    const byOrg = (d: ReturnType<typeof decide>) =>
      d.admit.reduce<Record<string, number>>(
        (c, x) => ({ ...c, [x.job[0]]: (c[x.job[0]] ?? 0) + 1 }),
        {},
      );
    expect(byOrg(decide(base({ waiting: [...a, ...b], orgs })))).toEqual({ a: 6, b: 2 });
    // Without quotas, the organization that used the GPUs lately waits behind the other.
    // Eight GPUs over the last half-life weigh as four now.
    const history = new Map([['a', decay({}, { nvidia_gpu: 8 }, 3600e3, 3600e3)]]);
    const d = decide(base({ waiting: [...a, ...b], history }));
    expect(byOrg(d)).toEqual({ a: 2, b: 6 });
  });

  it('starts high before normal before low within a project, then the oldest', () => {
    const jobs = [
      { ...gpuJob('low', 'a', 'p', 1, 4), priority: 0 },
      { ...gpuJob('normal-new', 'a', 'p', 3, 4), priority: 1 },
      { ...gpuJob('normal-old', 'a', 'p', 2, 4), priority: 1 },
      { ...gpuJob('high', 'a', 'p', 4, 4), priority: 2 },
    ];
    const d = decide(base({ waiting: jobs }));
    expect(d.admit.map((a) => a.job)).toEqual(['high', 'normal-old']);
    expect(d.waiting.get('normal-new')!.position).toBe(1);
    expect(d.waiting.get('low')!.position).toBe(2);
    expect(d.waiting.get('low')!.reasons).toContainEqual({ kind: 'behind', ahead: 1 });
  });

  it('lets a project borrow idle GPUs up to its borrowing limit, and says the figures', () => {
    const jobs = Array.from({ length: 6 }, (_, i) => gpuJob(`j${i}`, 'a', 'p', i));
    const projects = new Map([
      ['a/p', { nominal: { nvidia_gpu: 2 }, borrowingLimit: { nvidia_gpu: 1 } }],
    ]);
    const d = decide(base({ waiting: jobs, projects }));
    expect(d.admit.map((a) => a.borrowing)).toEqual([false, false, true]);
    expect(d.waiting.get('j3')!.reasons[0]).toEqual({
      kind: 'quota',
      scope: 'project',
      resource: 'nvidia_gpu',
      used: 3,
      requested: 1,
      nominal: 2,
      borrowing_limit: 1,
    });
    // With no quota a project alone takes the whole idle cluster.
    expect(decide(base({ waiting: jobs })).admit).toHaveLength(6);
  });

  it('takes borrowed GPUs back for their owner, the most recently started first', () => {
    const orgs = new Map([
      ['a', { nominal: { nvidia_gpu: 4 } }],
      ['b', { nominal: { nvidia_gpu: 4 } }],
    ]);
    const a = Array.from({ length: 8 }, (_, i) =>
      running(gpuJob(`a${i}`, 'a', 'p', i), i < 4 ? 'n1' : 'n2'),
    );
    const d = decide(base({ running: a, waiting: [gpuJob('b0', 'b', 'p', 50, 2)], orgs }));
    expect(d.preempt).toEqual([
      { job: 'a7', for: 'b0', why: 'reclaim' },
      { job: 'a6', for: 'b0', why: 'reclaim' },
    ]);
    expect(d.waiting.get('b0')!.reasons[0]).toEqual({ kind: 'preempting', victims: ['a7', 'a6'] });
  });

  it('never preempts non-preemptible work within its quota, for anyone', () => {
    const orgs = new Map([
      ['a', { nominal: { nvidia_gpu: 8 } }],
      ['b', { nominal: { nvidia_gpu: 2 } }],
    ]);
    const a = Array.from({ length: 8 }, (_, i) =>
      running(gpuJob(`a${i}`, 'a', 'p', i), i < 4 ? 'n1' : 'n2'),
    );
    const urgent = { ...gpuJob('b0', 'b', 'p', 50), priority: 2 };
    const d = decide(base({ running: a, waiting: [urgent], orgs }));
    expect(d.preempt).toEqual([]);
    expect(d.waiting.get('b0')!.reasons[0]).toMatchObject({ kind: 'capacity' });
  });

  it('preempts lower-priority preemptible work of the same project for a higher-priority job', () => {
    const low = { ...gpuJob('low', 'a', 'p', 1, 4), priority: 0, preemptible: true };
    const steady = { ...gpuJob('steady', 'a', 'p', 2, 4), priority: 0 };
    const high = { ...gpuJob('high', 'a', 'p', 3, 4), priority: 2 };
    const d = decide(
      base({ running: [running(low, 'n1'), running(steady, 'n2')], waiting: [high] }),
    );
    expect(d.preempt).toEqual([{ job: 'low', for: 'high', why: 'priority' }]);
    // Another project's high priority is no reason to stop this one's work.
    const other = { ...high, project: 'q' };
    expect(
      decide(base({ running: [running(low, 'n1'), running(steady, 'n2')], waiting: [other] }))
        .preempt,
    ).toEqual([]);
  });

  it('chooses the fewest victims: one large job rather than two small ones', () => {
    const mk = (id: string, gpus: number, node: string, at: number) => ({
      ...running({ ...gpuJob(id, 'a', 'p', at, gpus), priority: 0, preemptible: true }, node),
    });
    const d = decide(
      base({
        running: [mk('s1', 2, 'n1', 1), mk('s2', 2, 'n1', 2), mk('big', 4, 'n2', 0)],
        waiting: [{ ...gpuJob('high', 'a', 'p', 9, 4), priority: 2 }],
      }),
    );
    expect(d.preempt.map((p) => p.job)).toEqual(['big']);
  });

  it('spares a victim that the job turns out not to need', () => {
    const spot = (id: string, gpus: number, node: string, at: number) =>
      running({ ...gpuJob(id, 'a', 'p', at, gpus), priority: 0, preemptible: true }, node);
    const steady = running(gpuJob('steady', 'a', 'p', 0, 4), 'n2');
    // The newest job on n1 goes first, yet freeing the older one alone is enough.
    const d = decide(
      base({
        running: [spot('old', 3, 'n1', 1), spot('new', 1, 'n1', 2), steady],
        waiting: [{ ...gpuJob('high', 'a', 'p', 9, 3), priority: 2 }],
      }),
    );
    expect(d.preempt.map((p) => p.job)).toEqual(['old']);
  });

  it('does not let a stream of small jobs overtake a large one for ever', () => {
    const smallRunning = [
      running(gpuJob('s0', 'a', 'x', 0), 'n1'),
      running(gpuJob('s1', 'a', 'x', 0), 'n2'),
    ];
    const large = gpuJob('large', 'a', 'y', 0, 4);
    const stream = Array.from({ length: 6 }, (_, i) => gpuJob(`new${i}`, 'a', 'x', 100 + i));
    // Before its wait is long: the small jobs fill the free GPUs of both nodes.
    const early = decide(base({ now: 1000, running: smallRunning, waiting: [large, ...stream] }));
    expect(early.admit).toHaveLength(6);
    // After it: a node is kept for the large job, and only the other one takes small jobs.
    const late = decide(
      base({ now: 4 * 3600e3, running: smallRunning, waiting: [large, ...stream] }),
    );
    const reasons = late.waiting.get('large')!.reasons;
    const kept = reasons.find((r) => r.kind === 'reserving');
    expect(kept).toBeDefined();
    expect(late.admit.every((a) => a.node !== (kept as { node: string }).node)).toBe(true);
    expect(late.admit).toHaveLength(3);
  });

  it('holds the organization to its running-jobs cap, and a held job blocks no one', () => {
    const orgs = new Map([['a', { maxRunningJobs: 1 }]]);
    const held = { ...gpuJob('held', 'b', 'p', 0), hold: 'No credits left' };
    const d = decide(
      base({
        waiting: [
          gpuJob('a0', 'a', 'p', 1),
          gpuJob('a1', 'a', 'p', 2),
          held,
          gpuJob('b1', 'b', 'p', 3),
        ],
        orgs,
      }),
    );
    expect(d.admit.map((a) => a.job).sort()).toEqual(['a0', 'b1']);
    expect(d.waiting.get('a1')!.reasons[0]).toEqual({ kind: 'jobs_cap', used: 1, limit: 1 });
    expect(d.waiting.get('held')!.reasons[0]).toEqual({ kind: 'held', message: 'No credits left' });
  });

  it('knows a job that no node of its pools could ever hold', () => {
    const nodes = [
      GPU_NODE('n1'),
      { name: 'c1', pool: 'cpu', capacity: { cpu: 64, memory: 512e9 } },
    ];
    expect(neverFits({ nvidia_gpu: 8 }, undefined, nodes)).toBe(true);
    expect(neverFits({ nvidia_gpu: 4 }, undefined, nodes)).toBe(false);
    expect(neverFits({ cpu: 48 }, ['gpu'], nodes)).toBe(true);
    expect(neverFits({ cpu: 48 }, ['cpu'], nodes)).toBe(false);
  });

  it('lets use fade with its half-life', () => {
    expect(decay({ cpu: 8 }, {}, 3600e3, 3600e3)).toEqual({ cpu: 4 });
    expect(decay({}, { cpu: 8 }, 3600e3, 3600e3)).toEqual({ cpu: 4 });
  });

  it('lets a job limited to one pool use a node that is in it among others', () => {
    const shared: SchedNode = { ...GPU_NODE('both'), pool: 'cpu', pools: ['cpu', 'gpu'] };
    const j = { ...gpuJob('j', 'o', 'p', 1), pools: ['gpu'] };
    const d = decide(base({ nodes: [shared], waiting: [j] }));
    expect(d.admit).toEqual([{ job: 'j', node: 'both', borrowing: false }]);
    expect(neverFits(j.requests, ['gpu'], [shared])).toBe(false);
    expect(neverFits(j.requests, ['other'], [shared])).toBe(true);
  });

  it('says where each organization and project stands: what it holds and its share', () => {
    const a = running(gpuJob('a', 'o1', 'p', 1, 4), 'n1');
    const b = running(gpuJob('b', 'o2', 'q', 1, 2), 'n2');
    const s = standings(base({ running: [a, b] }));
    // Two organizations weigh half each: o1 holds half the GPUs (its fair share), o2 a quarter.
    expect(s.get('o1')).toEqual({ used: a.requests, share: 1 });
    expect(s.get('o2')!.share).toBeCloseTo(0.5);
    expect(s.get('o1/p')!.used).toEqual(a.requests);
  });
});
