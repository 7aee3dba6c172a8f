import type { V1Node, V1Pod } from '@kubernetes/client-node';
import { POOL_NAME } from '../common.js';
import type { JobLimits, PoolCapacity } from '../driver.js';
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
