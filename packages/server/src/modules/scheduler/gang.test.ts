import { describe, expect, it } from 'vitest';
import { describeWait } from '@orrery/contract';
import {
  decide,
  neverFits,
  standings,
  type RunningJob,
  type SchedNode,
  type SchedulerInput,
  type WaitingJob,
} from './decide.js';

// Jobs of several workers (docs/jobs.md "Distributed jobs") on simulated capacity.
const GPU_NODE = (name: string, gpus = 4): SchedNode => ({
  name,
  pool: 'gpu',
  capacity: { cpu: 32, memory: 256e9, nvidia_gpu: gpus },
});
const job = (id: string, at: number, gpus: number, workers = 1, project = 'x') =>
  ({
    id,
    org: 'a',
    project,
    priority: 1,
    requests: { cpu: 4, memory: 16e9, nvidia_gpu: gpus },
    preemptible: false,
    createdAt: at,
    ...(workers > 1 ? { workers } : {}),
  }) satisfies WaitingJob;
const base = (over: Partial<SchedulerInput>): SchedulerInput => ({
  nodes: [GPU_NODE('n1'), GPU_NODE('n2')],
  running: [],
  waiting: [],
  now: 1_000_000,
  starvationMs: 3_600_000,
  ...over,
});

describe('gang admission', () => {
  it('admits a gang whole, a worker on each node where it fits whole', () => {
    const d = decide(base({ waiting: [job('g', 1, 4, 2)] }));
    expect(d.admit).toEqual([{ job: 'g', node: 'n1', nodes: ['n1', 'n2'], borrowing: false }]);
  });

  it('puts several workers on one node when they fit there, keeping the other node whole', () => {
    const d = decide(base({ waiting: [job('g', 1, 1, 4)] }));
    expect(d.admit).toHaveLength(1);
    expect(d.admit[0].nodes).toEqual(['n1', 'n1', 'n1', 'n1']);
  });

  it('puts one worker on each node where the runtime says so (Slurm: a worker per node)', () => {
    const one = (n: SchedNode): SchedNode => ({ ...n, workersPerJob: 1 });
    const nodes = [one(GPU_NODE('n1')), one(GPU_NODE('n2'))];
    const d = decide(base({ nodes, waiting: [job('g', 1, 1, 2)] }));
    expect(d.admit[0].nodes).toEqual(['n1', 'n2']);
    // With n2 taken, both workers would fit on n1, but only one may go there: the gang waits.
    const busy: RunningJob = { ...job('busy', 0, 4), node: 'n2', startedAt: 0 };
    const waits = decide(base({ nodes, running: [busy], waiting: [job('g', 1, 1, 2)] }));
    expect(waits.admit).toEqual([]);
    expect(waits.waiting.get('g')!.reasons[0]).toMatchObject({ workers: 2, fitting: 1 });
    // And a gang of three can never start on two such nodes.
    expect(neverFits(job('g3', 1, 1, 3).requests, undefined, nodes, 3)).toBe(true);
  });

  it('keeps a gang that does not fit waiting whole, holding nothing, and says so', () => {
    // One GPU taken on n2: three 4-GPU workers never fit now, two of them would.
    const busy: RunningJob = { ...job('busy', 0, 1), node: 'n2', startedAt: 0 };
    const gang = job('g', 1, 2, 4);
    const small = job('small', 2, 2);
    const d = decide(base({ running: [busy], waiting: [gang, small] }));
    // n1 holds two of the 2-GPU workers and n2 one: three of four fit, so none start.
    expect(d.admit.map((a) => a.job)).toEqual(['small']);
    const reason = d.waiting.get('g')!.reasons[0];
    expect(reason).toMatchObject({ kind: 'capacity', workers: 4, fitting: 3 });
    expect(describeWait(reason)).toBe(
      'Waiting for free capacity for all 4 workers at once (a job of several workers starts whole): 3 of them fit now',
    );
  });

  it('starts the gang whole once the capacity it waited for is free', () => {
    const busy: RunningJob = { ...job('busy', 0, 1), node: 'n2', startedAt: 0 };
    const gang = job('g', 1, 2, 4);
    expect(decide(base({ running: [busy], waiting: [gang] })).admit).toEqual([]);
    const d = decide(base({ waiting: [gang] }));
    expect(d.admit).toEqual([
      { job: 'g', node: 'n1', nodes: ['n1', 'n1', 'n2', 'n2'], borrowing: false },
    ]);
  });

  it("counts the whole gang against the project's quota", () => {
    const projects = new Map([
      ['a/x', { nominal: { nvidia_gpu: 4 }, borrowingLimit: { nvidia_gpu: 0 } }],
    ]);
    const over = decide(base({ waiting: [job('g', 1, 3, 2)], projects }));
    expect(over.admit).toEqual([]);
    expect(over.waiting.get('g')!.reasons[0]).toMatchObject({
      kind: 'quota',
      resource: 'nvidia_gpu',
      requested: 6,
      nominal: 4,
    });
    const within = decide(base({ waiting: [job('g', 1, 2, 2)], projects }));
    expect(within.admit.map((a) => a.job)).toEqual(['g']);
  });

  it('counts a running gang whole in the fair share and where its workers are', () => {
    const gang: RunningJob = {
      ...job('g', 0, 4, 2),
      node: 'n1',
      nodes: ['n1', 'n2'],
      startedAt: 0,
    };
    const s = standings(base({ running: [gang] }));
    expect(s.get('a')!.used).toEqual({ cpu: 8, memory: 32e9, nvidia_gpu: 8 });
    expect(s.get('a')!.share).toBe(1);
    // Both nodes are full: a one-GPU job waits.
    const d = decide(base({ running: [gang], waiting: [job('w', 1, 1, 1, 'y')] }));
    expect(d.admit).toEqual([]);
  });

  it('preempts a preemptible gang whole, freeing every node its workers held', () => {
    const gang: RunningJob = {
      ...job('g', 0, 4, 2),
      priority: 0,
      preemptible: true,
      node: 'n1',
      nodes: ['n1', 'n2'],
      startedAt: 0,
    };
    const urgent = { ...job('u', 1, 4), priority: 2 };
    const d = decide(base({ running: [gang], waiting: [urgent] }));
    expect(d.preempt).toEqual([{ job: 'g', for: 'u', why: 'priority' }]);
  });

  it('knows a gang that the cluster could never hold at once', () => {
    const nodes = [GPU_NODE('n1'), GPU_NODE('n2')];
    expect(neverFits({ nvidia_gpu: 4 }, undefined, nodes, 2)).toBe(false);
    expect(neverFits({ nvidia_gpu: 4 }, undefined, nodes, 3)).toBe(true);
    expect(neverFits({ nvidia_gpu: 1 }, undefined, nodes, 8)).toBe(false);
    expect(neverFits({ nvidia_gpu: 1 }, undefined, nodes, 9)).toBe(true);
    expect(neverFits({ nvidia_gpu: 1 }, ['cpu'], nodes, 1)).toBe(true);
  });
});

describe('a gang that waits', () => {
  const runningOn = (
    j: WaitingJob,
    node: string,
    startedAt: number,
    over: Partial<RunningJob> = {},
  ): RunningJob => ({ ...j, node, startedAt, ...over });
  const spot = (id: string, gpus: number, node: string, startedAt: number) =>
    runningOn({ ...job(id, 0, gpus), priority: 0, preemptible: true }, node, startedAt);
  // A 4-GPU preemptible job on n1, four 1-GPU ones on n2, all of low priority.
  const spotWork = [
    spot('big', 4, 'n1', 0),
    spot('s1', 1, 'n2', 1),
    spot('s2', 1, 'n2', 2),
    spot('s3', 1, 'n2', 3),
    spot('s4', 1, 'n2', 4),
  ];

  it('preempts just enough preemptible work for all its workers, and starts whole after', () => {
    const gang = { ...job('g', 10, 2, 3), priority: 2 };
    // Newer work of its project that would take what the victims give back.
    const small = { ...job('small', 20, 1), priority: 0 };
    const d = decide(base({ running: spotWork, waiting: [gang, small] }));
    // n1's one job makes room for two workers, the two newest of n2 for the third; the two
    // oldest of n2 keep running.
    expect(d.preempt).toEqual([
      { job: 'big', for: 'g', why: 'priority' },
      { job: 's4', for: 'g', why: 'priority' },
      { job: 's3', for: 'g', why: 'priority' },
    ]);
    // Not in the same pass as its victims are stopped, and what they free is held for it.
    expect(d.admit).toEqual([]);
    expect(d.waiting.get('g')!.reasons[0]).toEqual({
      kind: 'preempting',
      victims: ['big', 's4', 's3'],
    });
    expect(d.waiting.get('small')!.reasons[0]).toMatchObject({ kind: 'capacity' });
    // The victims stopped: the gang starts whole, before the small job.
    const after = decide(
      base({
        running: spotWork.filter((j) => ['s1', 's2'].includes(j.id)),
        waiting: [gang, small],
      }),
    );
    expect(after.preempt).toEqual([]);
    expect(after.admit.map((a) => a.job)).toEqual(['g']);
    expect([...after.admit[0].nodes!].sort()).toEqual(['n1', 'n1', 'n2']);
  });

  it('preempts nothing when even then its workers would not all fit', () => {
    // Two GPUs of n2 are held by work that may not give way: four 2-GPU workers never fit now.
    const steady = runningOn(job('steady', 0, 2), 'n2', 0);
    const running = [spotWork[0], spotWork[1], spotWork[2], steady];
    const gang = { ...job('g', 10, 2, 4), priority: 2 };
    const d = decide(base({ running, waiting: [gang] }));
    expect(d.preempt).toEqual([]);
    expect(d.waiting.get('g')!.reasons[0]).toMatchObject({ kind: 'capacity', workers: 4 });
    // Three workers would: the same gang of three preempts.
    const three = decide(base({ running, waiting: [{ ...gang, workers: 3 }] }));
    expect(three.preempt.map((p) => p.job)).toEqual(['big', 's2', 's1']);
  });

  it('takes borrowed capacity back for a gang within its nominal quota, newest first', () => {
    const orgs = new Map([
      ['a', { nominal: { nvidia_gpu: 4 } }],
      ['b', { nominal: { nvidia_gpu: 4 } }],
    ]);
    // Organization a borrows the four GPUs of b's share with work that is not preemptible.
    const borrowed = Array.from({ length: 8 }, (_, i) =>
      runningOn(job(`a${i}`, i, 1), i < 4 ? 'n1' : 'n2', i),
    );
    const gang = { ...job('g', 50, 2, 2), org: 'b' };
    const d = decide(base({ running: borrowed, waiting: [gang], orgs }));
    expect(d.preempt).toEqual(
      ['a7', 'a6', 'a5', 'a4'].map((id) => ({ job: id, for: 'g', why: 'reclaim' })),
    );
    // Beyond b's nominal quota it is no owner taking its share back: nothing is preempted.
    const big = { ...gang, workers: 3 };
    expect(decide(base({ running: borrowed, waiting: [big], orgs })).preempt).toEqual([]);
  });

  it('never takes a lender below its nominal quota, however many workers wait', () => {
    const orgs = new Map([
      ['a', { nominal: { nvidia_gpu: 4 } }],
      ['b', { nominal: { nvidia_gpu: 4 } }],
      ['c', { nominal: { nvidia_gpu: 2 } }],
    ]);
    // Organization a borrows one GPU; c's job within its quota fills half of n2.
    const running = [
      ...[0, 1, 2, 3].map((i) => runningOn(job(`a${i}`, i, 1), 'n1', i)),
      runningOn(job('a4', 4, 1), 'n2', 4),
      runningOn({ ...job('c0', 0, 2), org: 'c' }, 'n2', 0),
    ];
    // Room for two 2-GPU workers, or one 3-GPU job, means stopping three of a's jobs: two of
    // them within a's quota. Nothing is preempted.
    for (const waiting of [
      { ...job('g', 50, 2, 2), org: 'b' },
      { ...job('one', 50, 3), org: 'b' },
    ]) {
      const d = decide(base({ running, waiting: [waiting], orgs }));
      expect(d.preempt).toEqual([]);
      expect(d.waiting.get(waiting.id)!.reasons[0]).toMatchObject({ kind: 'capacity' });
    }
    // One 2-GPU job needs only the GPU a borrows.
    const d = decide(base({ running, waiting: [{ ...job('two', 50, 2), org: 'b' }], orgs }));
    expect(d.preempt).toEqual([{ job: 'a4', for: 'two', why: 'reclaim' }]);
  });

  describe('for longer than the starvation wait', () => {
    // Three 4-GPU nodes; another project's work holds half of n1 and of n2; the gang's two
    // 4-GPU workers fit on n3 alone now; newer 1-GPU jobs of its project keep arriving.
    const nodes = [GPU_NODE('n1'), GPU_NODE('n2'), GPU_NODE('n3')];
    const other = [
      runningOn(job('o1', 0, 2, 1, 'y'), 'n1', 0),
      runningOn(job('o2', 0, 2, 1, 'y'), 'n2', 0),
    ];
    const gang = job('g', 0, 4, 2);
    const stream = Array.from({ length: 6 }, (_, i) => job(`s${i}`, 100 + i, 1));
    const STARVING = 4 * 3600e3;

    it('keeps the nodes it needs from newer jobs, and starts once the running work ends', () => {
      const d = decide(base({ nodes, now: STARVING, running: other, waiting: [gang, ...stream] }));
      const kept = d.waiting.get('g')!.reasons[1];
      // n3 holds one worker now, n1 is the closest to holding the other.
      expect(kept).toEqual({ kind: 'reserving', node: 'n3', nodes: ['n3', 'n1'], workers: 2 });
      expect(describeWait(kept)).toBe(
        'Capacity is being kept for all 2 workers (the job waited long enough): no job behind it starts on nodes n3, n1 before it does',
      );
      // Only n2, which it does not need, takes newer jobs (backfill), and it holds nothing.
      expect(d.admit).toEqual([
        { job: 's0', node: 'n2', borrowing: false },
        { job: 's1', node: 'n2', borrowing: false },
      ]);
      const backfilled = d.admit.map((a) => runningOn(job(a.job, 100, 1), a.node, 1));
      const waiting = [gang, ...stream.slice(2)];
      // o1 still runs: the gang keeps waiting, and so does the stream.
      const still = decide(
        base({ nodes, now: STARVING + 60e3, running: [...other, ...backfilled], waiting }),
      );
      expect(still.admit).toEqual([]);
      expect(still.waiting.get('g')!.reasons[1]).toMatchObject({ nodes: ['n3', 'n1'] });
      // o1 ended: the gang starts whole on the nodes kept for it.
      const started = decide(
        base({ nodes, now: STARVING + 120e3, running: [other[1], ...backfilled], waiting }),
      );
      expect(started.admit).toEqual([
        { job: 'g', node: 'n1', nodes: ['n1', 'n3'], borrowing: false },
      ]);
    });

    it('blocks no one before that: the newer jobs take the free GPUs', () => {
      const d = decide(base({ nodes, now: 1000, running: other, waiting: [gang, ...stream] }));
      expect(d.admit.map((a) => a.job)).toEqual(stream.map((s) => s.id));
      expect(d.waiting.get('g')!.reasons.map((r) => r.kind)).toEqual(['capacity']);
    });
  });
});
