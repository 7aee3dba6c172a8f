// The nodes of a Slurm cluster as the scheduler counts them (runtime/driver.ts NodeCapacity):
// each node that takes work, what it has less what jobs that are not Orrery's hold on it.
import type { NodeCapacity } from '../driver.js';
import { capacityOf, gpusOf } from './capacity.js';
import type { SlurmJob, SlurmNode } from './client.js';

const MB = 2 ** 20;

/** Job states whose resources the node still counts as allocated. */
const HOLDING = new Set(['RUNNING', 'COMPLETING', 'SUSPENDED']);

interface Held {
  cpu: number;
  memoryMb: number;
  gpu: number;
}

/**
 * What Orrery's own jobs hold on each node: a job on one node holds its CPUs there; a gang's
 * workers (one a node, each the same) hold an equal share of the job's CPUs on each. Memory and
 * GRES are per node.
 */
function heldByOurs(jobs: SlurmJob[], ours: (j: SlurmJob) => boolean): Map<string, Held> {
  const held = new Map<string, Held>();
  for (const j of jobs) {
    if (!ours(j) || !HOLDING.has(j.state) || j.allocated.length === 0) continue;
    for (const [i, at] of j.allocated.entries()) {
      const h = held.get(at.node) ?? { cpu: 0, memoryMb: 0, gpu: 0 };
      h.cpu += j.cpus / j.allocated.length;
      h.memoryMb += at.memoryMb;
      h.gpu += gpusOf(j.gres[i])?.count ?? 0;
      held.set(at.node, h);
    }
  }
  return held;
}

/**
 * Each node that takes work (idle, mixed or allocated; not down or drained), once per partition
 * it is in, with that partition as its pool: a node of `cpu` and `gpu` is offered to the jobs of
 * both, and the two entries share its name, so whoever counts them takes its resources once.
 * What it offers: its CPUs, RealMemory and GRES GPUs (NVIDIA's: the driver asks for `gpu` GRES),
 * less what other work holds on it. Slurm reports a node's allocation whole; Orrery's own jobs
 * (`ours`) are given back, as the scheduler counts what it admitted itself.
 */
export function slurmNodes(
  nodes: SlurmNode[],
  jobs: SlurmJob[],
  ours: (j: SlurmJob) => boolean,
): NodeCapacity[] {
  const held = heldByOurs(jobs, ours);
  const out: NodeCapacity[] = [];
  for (const n of capacityOf(nodes).nodes) {
    if (!['idle', 'mix', 'alloc'].includes(n.state)) continue;
    const mine = held.get(n.name) ?? { cpu: 0, memoryMb: 0, gpu: 0 };
    // Never below nothing: the node's figures and the jobs' are two reads, a moment apart.
    const others = {
      cpu: Math.max(0, n.used.cpu - mine.cpu),
      memory: Math.max(0, n.used.memory - mine.memoryMb * MB),
      gpu: Math.max(0, n.used.gpu - mine.gpu),
    };
    const gpus = n.gpus ? Math.max(0, n.gpus.count - others.gpu) : 0;
    for (const pool of n.partitions) {
      out.push({
        name: n.name,
        pool,
        cpu: Math.max(0, n.cpus - others.cpu),
        memory: Math.max(0, n.memory - others.memory),
        ...(n.gpus ? { gpus: { nvidia: gpus } } : {}),
        // A job of several workers is one allocation of that many nodes, a worker on each.
        workersPerJob: 1,
      });
    }
  }
  return out;
}

/** The first of the preset's pools that is a Slurm partition; none: the default partition. */
export function partitionOf(pools: string[], nodes: SlurmNode[]): string | undefined {
  const partitions = new Set(nodes.flatMap((n) => n.partitions));
  return pools.find((p) => partitions.has(p));
}
