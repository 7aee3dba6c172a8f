import { describe, expect, it } from 'vitest';
import { jobsOf, nodesOf, type SlurmJob } from './client.js';
import { slurmNodes } from './nodes.js';

const MB = 2 ** 20;

/** One job's allocation on one node, as `squeue --json` (and slurmrestd's `GET /jobs`) gives it. */
const allocation = (node: string, memory: number, sockets: object) => ({
  nodes: node,
  allocated_cores: Object.keys(sockets).length,
  allocated_hosts: 1,
  allocated_nodes: [
    { sockets, nodename: node, cpus_used: 0, memory_used: 0, memory_allocated: memory },
  ],
});
const core = { cores: { '0': 'allocated' } };

/**
 * Captured from the private test cluster of scripts/slurm.mjs (Slurm 22.05, node names
 * shortened): node n2 is in partitions `cpu` and `gpu` with two GRES GPUs. Running: `other`, a
 * user's job holding 1 CPU, 300 MB and GPU 0 on n2; `orrery-job-1234`, Orrery's, holding 1 CPU,
 * 500 MB and GPU 1 on n2; `waits`, a user's, holding both CPUs and 100 MB of n1. `mpi` is pending.
 */
const SQUEUE = {
  jobs: [
    {
      job_id: 1,
      name: 'other',
      user_name: 'nobody',
      job_state: 'RUNNING',
      state_reason: 'None',
      job_resources: allocation('n2', 300, { '0': core }),
      gres_detail: ['gpu:fake:1(IDX:0)'],
      cpus: 1,
      memory_per_node: 300,
      batch_host: 'n2',
      partition: 'gpu',
    },
    {
      job_id: 2,
      name: 'orrery-job-1234',
      user_name: 'orrery-slurm',
      job_state: 'RUNNING',
      state_reason: 'None',
      job_resources: allocation('n2', 500, { '1': core }),
      gres_detail: ['gpu:fake:1(IDX:1)'],
      cpus: 1,
      memory_per_node: 500,
      batch_host: 'n2',
      partition: 'gpu',
    },
    {
      job_id: 3,
      name: 'mpi',
      user_name: 'nobody',
      job_state: 'PENDING',
      state_reason: 'Resources',
      job_resources: null,
      gres_detail: [],
      cpus: 2,
      memory_per_node: 200,
      batch_host: '',
      partition: 'cpu',
    },
    {
      job_id: 4,
      name: 'waits',
      user_name: 'nobody',
      job_state: 'RUNNING',
      state_reason: 'None',
      job_resources: allocation('n1', 100, { '0': core, '1': core }),
      gres_detail: [],
      cpus: 2,
      memory_per_node: 100,
      batch_host: 'n1',
      partition: 'cpu',
    },
  ],
};

const node = { hostname: 'localhost', address: '127.0.0.1', state_flags: [], reason: '' };
/** `sinfo --json` at the same moment. */
const SINFO = {
  nodes: [
    {
      ...node,
      name: 'n1',
      state: 'allocated',
      cpus: 2,
      real_memory: 2000,
      alloc_memory: 100,
      alloc_cpus: 2,
      gres: '',
      gres_used: 'gpu:0',
      partitions: ['cpu'],
    },
    {
      ...node,
      name: 'n2',
      state: 'allocated',
      cpus: 2,
      real_memory: 2000,
      alloc_memory: 800,
      alloc_cpus: 2,
      gres: 'gpu:fake:2',
      gres_used: 'gpu:fake:2(IDX:0-1)',
      partitions: ['cpu', 'gpu'],
    },
  ],
};

const ours = (j: SlurmJob) => j.name.startsWith('orrery-') && j.user === 'orrery-slurm';

describe('Slurm nodes as the scheduler counts them', () => {
  it('reads what each job holds on its node', () => {
    const [other, , pending] = jobsOf(SQUEUE);
    expect(other).toMatchObject({
      cpus: 1,
      allocated: [{ node: 'n2', memoryMb: 300 }],
      gres: ['gpu:fake:1(IDX:0)'],
    });
    expect(pending).toMatchObject({ state: 'PENDING', allocated: [], gres: [] });
  });

  it('offers each node once per partition, less what jobs that are not Orrery’s hold', () => {
    expect(slurmNodes(nodesOf(SINFO), jobsOf(SQUEUE), ours)).toEqual([
      // `waits` holds both CPUs of n1: only memory is left there.
      { name: 'n1', pool: 'cpu', cpu: 0, memory: 1900 * MB, workersPerJob: 1 },
      // Orrery's own job is given back: only `other`'s CPU, 300 MB and GPU are gone from n2.
      { name: 'n2', pool: 'cpu', cpu: 1, memory: 1700 * MB, gpus: { nvidia: 1 }, workersPerJob: 1 },
      { name: 'n2', pool: 'gpu', cpu: 1, memory: 1700 * MB, gpus: { nvidia: 1 }, workersPerJob: 1 },
    ]);
  });

  it('counts a job of the service user under another name, and another user’s orrery- job, as other work', () => {
    const jobs = jobsOf({
      jobs: SQUEUE.jobs.map((j) =>
        j.job_id === 2 ? { ...j, user_name: 'alice' } : j.job_id === 1 ? { ...j, name: 'x' } : j,
      ),
    });
    const n2 = slurmNodes(nodesOf(SINFO), jobs, ours).find((n) => n.name === 'n2');
    expect(n2).toEqual({
      name: 'n2',
      pool: 'cpu',
      cpu: 0,
      memory: 1200 * MB,
      gpus: { nvidia: 0 },
      workersPerJob: 1,
    });
  });

  it('gives back a job of several workers on each of its nodes: its share of CPUs, its memory there', () => {
    // Orrery's gang of two holding both nodes whole (2 CPUs and 1000 MB on each).
    const gang = {
      ...SQUEUE.jobs[1],
      job_id: 9,
      cpus: 4,
      gres_detail: [],
      job_resources: {
        nodes: 'n[1-2]',
        allocated_cores: 4,
        allocated_hosts: 2,
        allocated_nodes: ['n1', 'n2'].map((nodename) => ({
          nodename,
          sockets: { '0': core, '1': core },
          cpus_used: 0,
          memory_used: 0,
          memory_allocated: 1000,
        })),
      },
    };
    const nodes = nodesOf({
      nodes: SINFO.nodes.map((n) => ({
        ...n,
        alloc_cpus: 2,
        alloc_memory: 1000,
        gres_used: 'gpu:0',
      })),
    });
    expect(slurmNodes(nodes, jobsOf({ jobs: [gang] }), ours)).toEqual([
      { name: 'n1', pool: 'cpu', cpu: 2, memory: 2000 * MB, workersPerJob: 1 },
      { name: 'n2', pool: 'cpu', cpu: 2, memory: 2000 * MB, gpus: { nvidia: 2 }, workersPerJob: 1 },
      { name: 'n2', pool: 'gpu', cpu: 2, memory: 2000 * MB, gpus: { nvidia: 2 }, workersPerJob: 1 },
    ]);
  });

  it('leaves out nodes that are down or drained, and a finished Orrery job gives nothing back', () => {
    const nodes = nodesOf({
      nodes: [
        { ...SINFO.nodes[0], state: 'down', reason: 'fan' },
        { ...SINFO.nodes[1], state: 'idle', state_flags: ['DRAIN'], reason: 'disk check' },
        { ...SINFO.nodes[1], name: 'n3', state: 'mixed', alloc_cpus: 1, alloc_memory: 300 },
      ],
    });
    // An Orrery job that ended on n3 while sinfo still counted only `other`'s 1 CPU and 300 MB.
    const jobs = jobsOf({
      jobs: [
        {
          ...SQUEUE.jobs[1],
          job_state: 'COMPLETED',
          job_resources: allocation('n3', 500, { '1': core }),
        },
      ],
    });
    expect(slurmNodes(nodes, jobs, ours)).toEqual([
      { name: 'n3', pool: 'cpu', cpu: 1, memory: 1700 * MB, gpus: { nvidia: 0 }, workersPerJob: 1 },
      { name: 'n3', pool: 'gpu', cpu: 1, memory: 1700 * MB, gpus: { nvidia: 0 }, workersPerJob: 1 },
    ]);
  });
});
