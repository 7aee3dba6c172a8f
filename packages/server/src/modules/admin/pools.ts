import { cpus, totalmem } from 'node:os';
import {
  ADMIN_TEXTS,
  GPU_VENDORS,
  idleSizeIssue,
  type GpuVendor,
  type NodePoolStatusWire,
} from '@orrery/contract';
import type { Db } from '../../db/client.js';
import { activeJobs } from '../jobs/store.js';
import { containerOf } from '../jobs/container.js';
import { HttpError, notFound } from '../../http/errors.js';
import { DEFAULT_CLUSTER } from '@orrery/contract';
import type { LocalGpus } from '../../runtime/machine.js';
import type { ClusterCatalog, NodePoolRow } from '../clusters/store.js';
import type { Config } from '../../config.js';
import type { readSlurmCapacity, SlurmPool } from '../../runtime/slurm/capacity.js';
import { requireSlurmOptions } from '../../runtime/slurm/options.js';
import { poolByName, poolsOf, presetsOf, updatePool } from './store-capacity.js';

export interface ResourceUsage {
  cpu: number;
  memory: number;
  nvidia_gpu: number;
  amd_gpu: number;
  intel_gpu: number;
}
const ZERO: ResourceUsage = { cpu: 0, memory: 0, nvidia_gpu: 0, amd_gpu: 0, intel_gpu: 0 };

/**
 * What the jobs holding resources on a cluster (handed to the runtime, not finished) take, per
 * node pool: each job counts against the first pool its preset names, else the cluster's first.
 */
export async function usedByJobs(
  db: Db,
  clusterName: string,
): Promise<Record<string, ResourceUsage>> {
  const [pools, active, presets] = await Promise.all([
    poolsOf(db, clusterName),
    activeJobs(db, clusterName),
    presetsOf(db, clusterName),
  ]);
  const used = Object.fromEntries(pools.map((p) => [p.name, { ...ZERO }]));
  for (const j of active) {
    const preset = presets.find((p) => p.name === j.presetName);
    const pool = preset?.resourcePoolNames.find((n) => n in used) ?? pools[0]?.name;
    if (!pool) continue;
    const r = containerOf(j).resources;
    const u = used[pool]!;
    u.cpu += r.cpu;
    u.memory += r.memory;
    u.nvidia_gpu += r.nvidia_gpu ?? 0;
    u.amd_gpu += r.amd_gpu ?? 0;
    u.intel_gpu += r.intel_gpu ?? 0;
  }
  return used;
}

type PoolGpus = Partial<Record<GpuVendor, { count: number; model?: string }>>;

/**
 * Live capacity as the cluster's runtime reports it. The local cluster runs on this machine, so
 * its pool is measured now (cpus, memory, GPUs); another cluster's pool offers its nodes' shape
 * times its maximum node count.
 */
function capacityOf(cluster: string, pool: NodePoolRow, machine: LocalGpus): ResourceUsage {
  const gpus = (pool.gpus ?? {}) as PoolGpus;
  if (cluster === DEFAULT_CLUSTER) {
    const local = machine.current();
    // Intel's are not probed (runtime/gpus.ts): the pool's own count stands unless described.
    const intel = machine.described ? local.intel : gpus.intel;
    return {
      cpu: cpus().length,
      memory: totalmem(),
      nvidia_gpu: local.nvidia?.count ?? 0,
      amd_gpu: local.amd?.count ?? 0,
      intel_gpu: intel?.count ?? 0,
    };
  }
  return {
    cpu: pool.cpu * pool.maxSize,
    memory: pool.memory * pool.maxSize,
    nvidia_gpu: (gpus.nvidia?.count ?? 0) * pool.maxSize,
    amd_gpu: (gpus.amd?.count ?? 0) * pool.maxSize,
    intel_gpu: (gpus.intel?.count ?? 0) * pool.maxSize,
  };
}

/**
 * On Slurm the local cluster's pools are partitions: capacity and nodes as Slurm reports them
 * through the configured client, `sinfo` or slurmrestd (runtime/slurm/capacity.ts). A cluster
 * that does not answer is said so, not shown as empty.
 */
async function slurmView(cluster: string, runtime?: PoolsRuntime) {
  if (runtime?.kind !== 'slurm' || !runtime.slurm || cluster !== DEFAULT_CLUSTER) return null;
  // The Slurm clients are loaded only where Slurm runs the jobs, as server.ts does.
  const [{ readSlurmCapacity }, { slurmClient }] = await Promise.all([
    import('../../runtime/slurm/capacity.js'),
    import('../../runtime/slurm/connect.js'),
  ]);
  try {
    return await readSlurmCapacity(slurmClient(requireSlurmOptions(runtime.slurm)));
  } catch (e) {
    throw new HttpError('internal', `Slurm did not report its nodes: ${(e as Error).message}`);
  }
}

function slurmCapacity(p: SlurmPool): ResourceUsage {
  // Slurm's GRES name no vendor; the slurm driver asks NVIDIA GPUs as `gpu` GRES.
  return { ...ZERO, cpu: p.capacity.cpu, memory: p.capacity.memory, nvidia_gpu: p.capacity.gpu };
}

function poolCapacity(
  p: NodePoolRow,
  cluster: string,
  machine: LocalGpus,
  slurm: Awaited<ReturnType<typeof readSlurmCapacity>> | null,
) {
  if (!slurm) return { capacity: capacityOf(cluster, p, machine) };
  const partition = slurm.pools.find((s) => s.name === p.name);
  const nodes = slurm.nodes.filter((n) => partition?.nodes.includes(n.name));
  return {
    capacity: partition ? slurmCapacity(partition) : { ...ZERO },
    nodes: nodes.map(({ name, state, reason }) => ({ name, state, reason })),
  };
}

/**
 * Partitions no node pool row names yet (a fresh server describes only `local`): shown as Slurm
 * has them, so the tab lists every partition; their edits need a row (not found until then).
 */
function unlisted(
  pools: NodePoolRow[],
  slurm: Awaited<ReturnType<typeof readSlurmCapacity>> | null,
): NodePoolRow[] {
  return (slurm?.pools ?? [])
    .filter((sp) => !pools.some((p) => p.name === sp.name))
    .map((sp): NodePoolRow => ({
      clusterName: DEFAULT_CLUSTER,
      name: sp.name,
      minSize: sp.nodes.length,
      maxSize: sp.nodes.length,
      idleSize: 0,
      cpuMinWatts: 0,
      cpuMaxWatts: 0,
      isPreemptible: false,
      cpu: sp.node.cpu,
      memory: sp.node.memory,
      diskSize: 0,
      gpus: sp.node.gpus ? { nvidia: sp.node.gpus } : {},
    }));
}

/** What the pools' view needs of the runtime's settings: Slurm's. */
type PoolsRuntime = Partial<Pick<Config['runtime'], 'kind' | 'slurm'>>;

export async function poolStatuses(
  db: Db,
  cluster: string,
  /** This machine's GPUs, for the local cluster's pool: the server's one probe of them. */
  machine: LocalGpus,
  runtime?: PoolsRuntime,
): Promise<NodePoolStatusWire[]> {
  const [pools, used, slurm] = await Promise.all([
    poolsOf(db, cluster),
    usedByJobs(db, cluster),
    slurmView(cluster, runtime),
  ]);
  return [...pools, ...unlisted(pools, slurm)]
    .sort((a, b) => a.name.localeCompare(b.name))
    .map((p) => {
      const gpus = (p.gpus ?? {}) as PoolGpus;
      return {
        name: p.name,
        min_size: p.minSize,
        max_size: p.maxSize,
        idle_size: p.idleSize,
        cpu_min_watts: p.cpuMinWatts,
        cpu_max_watts: p.cpuMaxWatts,
        is_preemptible: p.isPreemptible,
        cpu: p.cpu,
        memory: p.memory,
        gpus: GPU_VENDORS.flatMap((make) => {
          const g = gpus[make];
          return g ? [{ make, count: g.count, model: g.model ?? null }] : [];
        }),
        ...poolCapacity(p, cluster, machine, slurm),
        used: used[p.name] ?? { ...ZERO },
      };
    });
}

/** Node pool edit: idle size and CPU watts; min and max stay as the provider set them. */
export async function patchPool(
  db: Db,
  catalog: ClusterCatalog,
  cluster: string,
  name: string,
  p: { idle_size?: number; cpu_min_watts?: number; cpu_max_watts?: number },
) {
  const pool = await poolByName(db, cluster, name);
  if (!pool) throw notFound(`Node pool ${name} not found`);
  const issues: { path: string; message: string }[] = [];
  const idle = p.idle_size === undefined ? null : idleSizeIssue(p.idle_size, pool);
  if (idle) issues.push({ path: 'idle_size', message: idle });
  const min = p.cpu_min_watts ?? pool.cpuMinWatts;
  const max = p.cpu_max_watts ?? pool.cpuMaxWatts;
  if (max < min) issues.push({ path: 'cpu_max_watts', message: ADMIN_TEXTS.wattsOrder });
  if (issues.length) throw new HttpError('validation', issues[0].message, issues);
  return updatePool(db, catalog, cluster, name, {
    ...(p.idle_size !== undefined ? { idleSize: p.idle_size } : {}),
    cpuMinWatts: min,
    cpuMaxWatts: max,
  });
}
