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
