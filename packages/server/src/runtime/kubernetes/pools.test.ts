import type { V1Node, V1Pod } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { kubeNodes, podRequests } from './pools.js';

const GI = 2 ** 30;
const POOL = 'orrery.io/node-pool';

/** Nodes as `kubectl get node -o json` shows them (the fields read here). */
const node = (
  name: string,
  allocatable: Record<string, string>,
  extra: { labels?: Record<string, string>; ready?: boolean; unschedulable?: boolean } = {},
): V1Node => ({
  metadata: { name, labels: { 'kubernetes.io/hostname': name, ...extra.labels } },
  spec: extra.unschedulable ? { unschedulable: true } : {},
  status: {
    allocatable: { pods: '110', 'ephemeral-storage': '95551679124', ...allocatable },
    conditions: [
      { type: 'MemoryPressure', status: 'False' },
      { type: 'Ready', status: extra.ready === false ? 'Unknown' : 'True' },
    ],
  },
});

const pod = (
  name: string,
  namespace: string,
  nodeName: string | undefined,
  spec: Partial<NonNullable<V1Pod['spec']>>,
  labels: Record<string, string> = {},
  phase = 'Running',
): V1Pod => ({
  metadata: { name, namespace, labels },
  spec: { containers: [], ...(nodeName ? { nodeName } : {}), ...spec },
  status: { phase },
});

const container = (
  name: string,
  requests?: Record<string, string>,
  limits?: Record<string, string>,
) => ({
  name,
  image: 'x',
  resources: { ...(requests ? { requests } : {}), ...(limits ? { limits } : {}) },
});

describe('Kubernetes nodes as the scheduler counts them', () => {
  it('counts a Pod as the Kubernetes scheduler does: containers and sidecars, or its largest init container, plus overhead', () => {
    const p = pod('web', 'shop', 'a', {
      initContainers: [
        { ...container('migrate', { cpu: '3', memory: '1Gi' }) },
        { ...container('proxy', { cpu: '250m', memory: '64Mi' }), restartPolicy: 'Always' },
      ],
      containers: [
        container('app', { cpu: '500m', memory: '512Mi' }),
        // A limit alone: the API server makes it the request.
        container('trainer', undefined, { 'nvidia.com/gpu': '1' }),
      ],
      overhead: { cpu: '100m', memory: '120Mi' },
    });
    const asks = podRequests(p);
    // The init container's 3 CPUs outweigh the running 0.75; its 1 Gi outweighs 576 Mi.
    expect(asks.cpu).toBeCloseTo(3.1);
    expect(asks.memory).toBe(GI + 120 * 2 ** 20);
    expect(asks['nvidia.com/gpu']).toBe(1);
  });

  it('offers each Ready, schedulable node: allocatable less what Pods other than Orrery’s jobs request', () => {
    const nodes = [
      node(
        'gpu-1',
        { cpu: '15890m', memory: '63Gi', 'nvidia.com/gpu': '4' },
        { labels: { [POOL]: 'a100' } },
      ),
      node('cpu-1', { cpu: '8', memory: '32Gi' }),
      node(
        'amd-1',
        { cpu: '32', memory: '128Gi', 'amd.com/gpu': '8' },
        { labels: { [POOL]: 'mi300' } },
      ),
      node('intel-1', { cpu: '8', memory: '16Gi', 'gpu.intel.com/i915': '1' }),
      node('gone', { cpu: '8', memory: '32Gi' }, { ready: false }),
      node('cordoned', { cpu: '8', memory: '32Gi' }, { unschedulable: true }),
    ];
    const pods = [
      // Someone else's training Pod and a DaemonSet's Pod on gpu-1.
      pod('train', 'research', 'gpu-1', {
        containers: [container('t', { cpu: '4', memory: '16Gi', 'nvidia.com/gpu': '2' })],
      }),
      pod('node-exporter', 'monitoring', 'gpu-1', {
        containers: [container('e', { cpu: '102m', memory: '180Mi' })],
      }),
      // Orrery's own job Pod: the scheduler counts it itself.
      pod(
        'orrery-job-1',
        'orrery-jobs',
        'gpu-1',
        { containers: [container('job', { cpu: '2', memory: '8Gi', 'nvidia.com/gpu': '1' })] },
        { 'orrery.io/job': 'job-1' },
      ),
      // Another installation's job Pod, in its own namespace: other work.
      pod(
        'orrery-job-9',
        'other-orrery',
        'amd-1',
        { containers: [container('job', { cpu: '30', memory: '8Gi', 'amd.com/gpu': '8' })] },
        { 'orrery.io/job': 'job-9' },
      ),
      // Not placed yet, and finished: neither holds anything.
      pod('pending', 'research', undefined, { containers: [container('p', { cpu: '8' })] }),
      pod(
        'done',
        'research',
        'cpu-1',
        { containers: [container('d', { cpu: '8' })] },
        {},
        'Succeeded',
      ),
    ];
    const ours = (p: V1Pod) =>
      p.metadata?.namespace === 'orrery-jobs' && !!p.metadata.labels?.['orrery.io/job'];
    const found = kubeNodes(nodes, pods, POOL, ours);
    expect(found.map((n) => n.name)).toEqual(['gpu-1', 'cpu-1', 'amd-1', 'intel-1']);
    const gpu = found[0]!;
    expect(gpu).toMatchObject({ pool: 'a100', gpus: { nvidia: 2 } });
    expect(gpu.cpu).toBeCloseTo(15.89 - 4 - 0.102);
    expect(gpu.memory).toBe(63 * GI - 16 * GI - 180 * 2 ** 20);
    expect(found.slice(1)).toEqual([
      { name: 'cpu-1', pool: 'local', cpu: 8, memory: 32 * GI },
      { name: 'amd-1', pool: 'mi300', cpu: 2, memory: 120 * GI, gpus: { amd: 0 } },
      { name: 'intel-1', pool: 'local', cpu: 8, memory: 16 * GI, gpus: { intel: 1 } },
    ]);
  });
});
