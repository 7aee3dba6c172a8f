// Node pools, capacity and node states of a Slurm cluster, from the nodes its client reports
// (`sinfo --json` or slurmrestd's `GET /nodes`, client.ts): a partition is a node pool; GPUs come
// from GRES (`gpu:<model>:<count>`).
import type { FirstPool } from '../machine.js';
import type { PoolCapacity } from '../driver.js';
import type { SlurmClient, SlurmNode } from './client.js';

/** As the admin nodes tab shows it; `drain` covers draining and drained. */
export type SlurmNodeState = 'idle' | 'mix' | 'alloc' | 'down' | 'drain' | 'unknown';

export interface SlurmGpus {
  model: string;
  count: number;
}

export interface SlurmNodeStatus {
  name: string;
  state: SlurmNodeState;
  /** Why it is down or drained (`scontrol update ... reason=`), else null. */
  reason: string | null;
  partitions: string[];
  cpus: number;
  /** Bytes. */
  memory: number;
  gpus: SlurmGpus | null;
  /** What jobs hold on it now. */
  used: { cpu: number; memory: number; gpu: number };
}

export interface SlurmResources {
  cpu: number;
  /** Bytes. */
  memory: number;
  gpu: number;
}

export interface SlurmPool {
  name: string;
  nodes: string[];
  /** The largest node's shape: what one job can ask for at most. */
  node: { cpu: number; memory: number; gpus: SlurmGpus | null };
  /** All nodes that take work (not down or drained). */
  capacity: SlurmResources;
  /** Capacity minus what jobs hold. */
  available: SlurmResources;
}

const MB = 2 ** 20;

/** The GPUs of a GRES string like `gpu:a100:2,gpu:a100:2(S:0-1)`; `gpu:2` names no model (''). */
export function gpusOf(gres: string | undefined): SlurmGpus | null {
  const found = { model: '', count: 0 };
  let any = false;
  for (const item of (gres ?? '').split(/,(?![^(]*\))/)) {
    const parts = item.replace(/\(.*\)$/, '').split(':');
    if (parts[0] !== 'gpu' || parts.length < 2) continue;
    const count = Number(parts[parts.length - 1]);
    if (!Number.isFinite(count)) continue;
    any = true;
    found.model ||= parts.length > 2 ? parts[1]! : '';
    found.count += count;
  }
  return any ? found : null;
}

function stateOf(n: SlurmNode): SlurmNodeState {
  const flags = n.stateFlags;
  const base = n.state;
  // NOT_RESPONDING alone is no verdict: it shows for a moment after a resume, and slurmctld marks
  // the node down itself once SlurmdTimeout passes.
  if (base === 'down') return 'down';
  if (flags.includes('DRAIN') || base.startsWith('drain')) return 'drain';
  if (base === 'idle') return 'idle';
  if (base === 'mixed') return 'mix';
  if (base === 'allocated') return 'alloc';
  return 'unknown';
}

function nodeOf(n: SlurmNode): SlurmNodeStatus {
  const state = stateOf(n);
  return {
    name: n.name,
    state,
    reason: state === 'down' || state === 'drain' ? n.reason || null : null,
    partitions: n.partitions,
    cpus: n.cpus,
    memory: n.realMemory * MB,
    gpus: gpusOf(n.gres),
    used: {
      cpu: n.allocCpus,
      memory: n.allocMemory * MB,
      gpu: gpusOf(n.gresUsed)?.count ?? 0,
    },
  };
}

const takesWork = (n: SlurmNodeStatus) => ['idle', 'mix', 'alloc'].includes(n.state);

function poolOf(name: string, nodes: SlurmNodeStatus[]): SlurmPool {
  const up = nodes.filter(takesWork);
  const sum = (f: (n: SlurmNodeStatus) => number) => up.reduce((s, n) => s + f(n), 0);
  const capacity = {
    cpu: sum((n) => n.cpus),
    memory: sum((n) => n.memory),
    gpu: sum((n) => n.gpus?.count ?? 0),
  };
  const largest = [...nodes].sort((a, b) => b.cpus - a.cpus || b.memory - a.memory)[0];
  return {
    name,
    nodes: nodes.map((n) => n.name),
    node: {
      cpu: largest?.cpus ?? 0,
      memory: largest?.memory ?? 0,
      gpus: nodes.find((n) => n.gpus)?.gpus ?? null,
    },
    capacity,
    available: {
      cpu: capacity.cpu - sum((n) => n.used.cpu),
      memory: capacity.memory - sum((n) => n.used.memory),
      gpu: capacity.gpu - sum((n) => n.used.gpu),
    },
  };
}

/** Nodes with their state, and a pool of each partition. */
export function capacityOf(slurmNodes: SlurmNode[]): {
  nodes: SlurmNodeStatus[];
  pools: SlurmPool[];
} {
  const nodes = slurmNodes.map(nodeOf).sort((a, b) => a.name.localeCompare(b.name));
  const names = [...new Set(nodes.flatMap((n) => n.partitions))].sort();
  const pools = names.map((p) =>
    poolOf(
      p,
      nodes.filter((n) => n.partitions.includes(p)),
    ),
  );
  return { nodes, pools };
}

/** A pool as the jobs service weighs it (admission, `apolo config show`). */
export function poolCapacityOf(p: SlurmPool): PoolCapacity {
  const gpus = p.node.gpus;
  return {
    name: p.name,
    cpu: p.capacity.cpu,
    memory: p.capacity.memory,
    diskSize: 0,
    ...(gpus && {
      gpu: {
        vendor: 'nvidia',
        count: p.capacity.gpu,
        ...(gpus.model && { model: gpus.model }),
      },
    }),
    availableCpu: p.available.cpu,
    availableMemory: p.available.memory,
  };
}

/** What the cluster reports now, through the driver's client (its commands or slurmrestd). */
export async function readSlurmCapacity(client: SlurmClient) {
  return capacityOf(await client.nodes());
}

/**
 * The partitions as the first start's node pools, shaped like their largest node; a GPU pool
 * only when every node of the partition has GPUs (a mixed partition serves CPU jobs).
 */
export async function slurmFirstPools(client: SlurmClient): Promise<FirstPool[]> {
  const { pools, nodes } = await readSlurmCapacity(client);
  const hasGpus = new Set(nodes.filter((n) => n.gpus).map((n) => n.name));
  return pools.map((p) => {
    const gpus = p.nodes.every((n) => hasGpus.has(n)) ? p.node.gpus : null;
    return {
      name: p.name,
      nodes: p.nodes.length,
      cpu: p.node.cpu,
      memory: p.node.memory,
      disk: 0,
      ...(gpus && { nvidia: { count: gpus.count, model: gpus.model } }),
    };
  });
}
