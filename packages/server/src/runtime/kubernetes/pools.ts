import type { V1Node, V1Pod } from '@kubernetes/client-node';
import { POOL_NAME } from '../common.js';
import type { JobLimits, NodeCapacity, PoolCapacity } from '../driver.js';
import { GPU_MODEL_LABEL, GPU_RESOURCE, quantity } from './names.js';

type Vendor = NonNullable<JobLimits['gpu']>['vendor'];

const ready = (n: V1Node) =>
  !n.spec?.unschedulable &&
  (n.status?.conditions ?? []).some((c) => c.type === 'Ready' && c.status === 'True');

/** What the Pods placed on a node ask for (requests, as the scheduler counts them). */
function requested(pods: V1Pod[], node: string) {
  let cpu = 0;
  let memory = 0;
  for (const p of pods) {
    if (p.spec?.nodeName !== node) continue;
    if (p.status?.phase === 'Succeeded' || p.status?.phase === 'Failed') continue;
    for (const c of p.spec.containers) {
      cpu += quantity(c.resources?.requests?.cpu);
      memory += quantity(c.resources?.requests?.memory);
    }
  }
  return { cpu, memory };
}

function gpuOf(n: V1Node): PoolCapacity['gpu'] {
  const alloc = n.status?.allocatable ?? {};
  for (const vendor of Object.keys(GPU_RESOURCE) as Vendor[]) {
    const count = quantity(alloc[GPU_RESOURCE[vendor]]);
    if (count > 0) {
      const label = GPU_MODEL_LABEL[vendor];
      const model = label ? n.metadata?.labels?.[label] : undefined;
      // NVIDIA's feature discovery labels the memory of one GPU in MiB.
      const mib = Number(n.metadata?.labels?.['nvidia.com/gpu.memory']);
      return {
        vendor,
        count,
        ...(model ? { model } : {}),
        ...(vendor === 'nvidia' && mib > 0 ? { memory: mib * 2 ** 20 } : {}),
      };
    }
  }
  return undefined;
}

/**
 * Node pools from the nodes' pool label (`ORRERY_KUBE_POOL_LABEL`; unlabelled nodes make the
 * pool `local`): a pool's size is that of its largest ready node (what one job can have), and
 * what is free is the most any one of its nodes has left after the requests of its Pods.
 */
export function poolsOf(nodes: V1Node[], pods: V1Pod[], poolLabel: string): PoolCapacity[] {
  const pools = new Map<string, PoolCapacity>();
  for (const n of nodes.filter(ready)) {
    const name = n.metadata?.labels?.[poolLabel] ?? POOL_NAME;
    const alloc = n.status?.allocatable ?? {};
    const cpu = quantity(alloc.cpu);
    const memory = quantity(alloc.memory);
    const used = requested(pods, n.metadata?.name ?? '');
    const gpu = gpuOf(n);
    const node: PoolCapacity = {
      name,
      cpu,
      memory,
      diskSize: quantity(alloc['ephemeral-storage']),
      ...(gpu ? { gpu } : {}),
      availableCpu: Math.max(0, cpu - used.cpu),
      availableMemory: Math.max(0, memory - used.memory),
    };
    const seen = pools.get(name);
    if (!seen) {
      pools.set(name, node);
      continue;
    }
    pools.set(name, {
      name,
      cpu: Math.max(seen.cpu, node.cpu),
      memory: Math.max(seen.memory, node.memory),
      diskSize: Math.max(seen.diskSize, node.diskSize),
      ...((seen.gpu ?? node.gpu) ? { gpu: seen.gpu ?? node.gpu } : {}),
      availableCpu: Math.max(seen.availableCpu, node.availableCpu),
      availableMemory: Math.max(seen.availableMemory, node.availableMemory),
    });
  }
  return [...pools.values()].sort((a, b) => a.name.localeCompare(b.name));
}

type Amounts = Record<string, number>;
type Quantities = Record<string, string | number | undefined>;

/** The resources the scheduler counts: CPU, memory and each vendor's GPUs. */
const COUNTED = ['cpu', 'memory', ...Object.values(GPU_RESOURCE)];

/** A container's requests (a limit alone stands for the request, as the API server defaults it). */
function containerAsks(c: { resources?: { requests?: Quantities; limits?: Quantities } }): Amounts {
  const r = c.resources ?? {};
  return Object.fromEntries(COUNTED.map((k) => [k, quantity(r.requests?.[k] ?? r.limits?.[k])]));
}

const add = (a: Amounts, b: Amounts) =>
  Object.fromEntries(COUNTED.map((k) => [k, (a[k] ?? 0) + (b[k] ?? 0)]));
const most = (a: Amounts, b: Amounts) =>
  Object.fromEntries(COUNTED.map((k) => [k, Math.max(a[k] ?? 0, b[k] ?? 0)]));
const none: Amounts = Object.fromEntries(COUNTED.map((k) => [k, 0]));

/**
 * What a Pod takes from its node as the Kubernetes scheduler counts it: its containers' requests
 * and its sidecars' (init containers that keep running), or its largest init container's if more
 * (they run one at a time, before the rest), plus the Pod's overhead.
 */
export function podRequests(p: V1Pod): Amounts {
  const spec = p.spec;
  if (!spec) return none;
  const sidecars = (spec.initContainers ?? []).filter((c) => c.restartPolicy === 'Always');
  const inits = (spec.initContainers ?? []).filter((c) => c.restartPolicy !== 'Always');
  const running = [...spec.containers, ...sidecars].map(containerAsks).reduce(add, none);
  const init = inits.map(containerAsks).reduce(most, none);
  const overhead = Object.fromEntries(COUNTED.map((k) => [k, quantity(spec.overhead?.[k])]));
  return add(most(running, init), overhead);
}

/**
 * Each Ready node that takes Pods (not cordoned), in the pool of its pool label (`local` without
 * one): its allocatable CPU, memory and GPUs by vendor, less the requests of the Pods on it that
 * are not Orrery's job Pods (`ours`; Orrery counts its own jobs itself).
 */
export function kubeNodes(
  nodes: V1Node[],
  pods: V1Pod[],
  poolLabel: string,
  ours: (p: V1Pod) => boolean,
): NodeCapacity[] {
  const taken = new Map<string, Amounts>();
  for (const p of pods) {
    const node = p.spec?.nodeName;
    if (!node || ours(p)) continue;
    if (p.status?.phase === 'Succeeded' || p.status?.phase === 'Failed') continue;
    taken.set(node, add(taken.get(node) ?? none, podRequests(p)));
  }
  return nodes.filter(ready).map((n) => {
    const name = n.metadata?.name ?? '';
    const alloc = n.status?.allocatable ?? {};
    const used = taken.get(name) ?? none;
    const left = (k: string) => Math.max(0, quantity(alloc[k]) - (used[k] ?? 0));
    const gpus: NonNullable<NodeCapacity['gpus']> = {};
    for (const vendor of Object.keys(GPU_RESOURCE) as Vendor[]) {
      if (quantity(alloc[GPU_RESOURCE[vendor]]) > 0) gpus[vendor] = left(GPU_RESOURCE[vendor]);
    }
    return {
      name,
      pool: n.metadata?.labels?.[poolLabel] ?? POOL_NAME,
      cpu: left('cpu'),
      memory: left('memory'),
      ...(Object.keys(gpus).length > 0 ? { gpus } : {}),
    };
  });
}
