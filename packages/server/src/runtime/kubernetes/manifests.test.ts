import { describe, expect, it } from 'vitest';
import { assertValidObject } from '../../test/kube-schema.js';
import { fullSpec } from '../../test/kube-fixtures.js';
import {
  diskClaimManifest,
  networkPolicyManifest,
  podManifest,
  pullSecretManifest,
  secretManifest,
  serviceManifest,
  type ManifestOptions,
} from './manifests.js';
import {
  gangHttpServiceManifest,
  gangPodManifests,
  gangNetworkPolicyManifest,
  gangServiceManifest,
} from './gang.js';
import { poolsOf } from './pools.js';
import { observedOf } from './state.js';

const o: ManifestOptions = {
  namespace: 'orrery-jobs',
  poolLabel: 'orrery.io/node-pool',
  preemptibleTaint: 'orrery.io/preemptible',
  storageClaim: 'orrery-storage',
  killGraceMs: 10_000,
};

/** client-node's TypeScript names → the wire's (`_from` is `from`), as its serializer sends. */
const wire = <T>(object: T) => JSON.parse(JSON.stringify(object).replaceAll('"_from":', '"from":'));

describe('kubernetes manifests (validated against the Kubernetes 1.32 OpenAPI schema)', () => {
  it('makes a valid Pod with the preset, GPUs, pool, tolerations, volumes and secrets', () => {
    const pod = podManifest(fullSpec(), o);
    assertValidObject(wire(pod));
    const c = pod.spec!.containers[0]!;
    expect(c.resources!.limits).toEqual({
      cpu: '2500m',
      memory: String(8 * 2 ** 30),
      'nvidia.com/gpu': '2',
    });
    expect(c.resources!.requests).toEqual(c.resources!.limits);
    expect(c.command).toEqual(['/bin/sh', '-c', "python train.py --name 'a b'"]);
    expect(pod.spec!.nodeSelector).toEqual({
      'orrery.io/node-pool': 'gpu-a100',
      'nvidia.com/gpu.product': 'A100',
    });
    expect(pod.spec!.tolerations).toEqual([
      { key: 'orrery.io/preemptible', operator: 'Exists' },
      { key: 'nvidia.com/gpu', operator: 'Exists' },
    ]);
    expect(pod.spec!.restartPolicy).toBe('Never');
    expect(pod.spec!.automountServiceAccountToken).toBe(false);
    expect(pod.metadata!.annotations).toMatchObject({
      'orrery.io/restart-policy': 'on-failure',
      'orrery.io/max-run-time-minutes': '90',
    });
    expect(c.env).toEqual([
      { name: 'PLAIN', value: '1' },
      {
        name: 'TOKEN',
        valueFrom: { secretKeyRef: { name: `orrery-${fullSpec().id}-secrets`, key: 'env-TOKEN' } },
      },
    ]);
    expect(c.volumeMounts!.map((m) => [m.mountPath, m.subPath ?? null])).toEqual([
      ['/in', 'c/o/p/in'],
      ['/disk', null],
      ['/etc/key', 'value'],
      ['/dev/shm', null],
    ]);
    expect(JSON.stringify(pod)).not.toContain('s3cret');
  });

  it('spreads several pools with node affinity and passes the other vendors’ GPUs', () => {
    const pod = podManifest(
      fullSpec({
        limits: { cpu: 1, memory: 2 ** 30, shm: false, gpu: { vendor: 'amd', count: 1 } },
        placement: { pools: ['a', 'b'], preemptible: false, restartPolicy: 'never' },
        entrypoint: undefined,
        mounts: [],
      }),
      o,
    );
    assertValidObject(wire(pod));
    expect(
      pod.spec!.affinity!.nodeAffinity!.requiredDuringSchedulingIgnoredDuringExecution!
        .nodeSelectorTerms[0],
    ).toEqual({
      matchExpressions: [{ key: 'orrery.io/node-pool', operator: 'In', values: ['a', 'b'] }],
    });
    expect(pod.spec!.containers[0]!.resources!.limits!['amd.com/gpu']).toBe('1');
    expect(pod.spec!.containers[0]!.args).toEqual(['train.py', '--name', 'a b']);
    expect(pod.spec!.tolerations).toEqual([{ key: 'amd.com/gpu', operator: 'Exists' }]);
  });

  it('makes valid Secrets, Service, NetworkPolicy and disk claims', () => {
    const spec = fullSpec();
    const secret = secretManifest(spec, o, [Buffer.from('key-bytes')])!;
    assertValidObject(wire(secret));
    expect(Buffer.from(secret.data!['env-TOKEN']!, 'base64').toString()).toBe('s3cret');
    expect(Buffer.from(secret.data!['volume-0']!, 'base64').toString()).toBe('key-bytes');
    const pull = pullSecretManifest(spec, o)!;
    assertValidObject(wire(pull));
    expect(
      JSON.parse(Buffer.from(pull.data!['.dockerconfigjson']!, 'base64').toString()).auths[
        'registry.example'
      ].username,
    ).toBe('alice');
    assertValidObject(wire(serviceManifest(spec, o)!));
    const policy = wire(networkPolicyManifest(spec, o));
    assertValidObject(policy);
    expect(policy.spec.ingress[0].from).toHaveLength(2);
    assertValidObject(
      wire(diskClaimManifest({ id: 'disk-1234', bytes: 5e9 }, { ...o, diskStorageClass: 'fast' })),
    );
    expect(secretManifest(fullSpec({ secretEnv: [] }), o, [])).toBeNull();
    expect(serviceManifest(fullSpec({ httpPort: undefined }), o)).toBeNull();
  });

  it('the schema check refuses what the API server would: a bad enum, a wrong type, an unknown field', () => {
    const pod = wire(podManifest(fullSpec(), o));
    expect(() =>
      assertValidObject({ ...pod, spec: { ...pod.spec, restartPolicy: 'Sometimes' } }),
    ).toThrow(/restartPolicy/);
    expect(() => assertValidObject({ ...pod, spec: { ...pod.spec, hostname: 5 } })).toThrow(
      /hostname/,
    );
    const typo = structuredClone(pod);
    typo.spec.containers[0].volumeMount = typo.spec.containers[0].volumeMounts;
    expect(() => assertValidObject(typo)).toThrow(/containers\[0\]\.volumeMount: unknown field/);
  });

  it('refuses a storage volume without the storage claim, and a bare host path', () => {
    expect(() => podManifest(fullSpec(), { ...o, storageClaim: undefined })).toThrow(
      'Storage volumes on the kubernetes runtime need ORRERY_KUBE_STORAGE_CLAIM, the claim holding the storage folder',
    );
    expect(() =>
      podManifest(fullSpec({ mounts: [{ hostPath: '/x', dstPath: '/y', readOnly: true }] }), o),
    ).toThrow('The kubernetes runtime cannot mount /y');
  });
});

describe('kubernetes Pod state and node pools', () => {
  it('reads waiting reasons, scheduling events and exit codes', () => {
    const pod = { metadata: { name: 'p' } };
    expect(observedOf(null)).toEqual({ state: 'missing' });
    expect(
      observedOf({
        ...pod,
        status: {
          phase: 'Pending',
          containerStatuses: [
            {
              name: 'job',
              image: 'i',
              imageID: '',
              ready: false,
              restartCount: 0,
              state: { waiting: { reason: 'ImagePullBackOff', message: 'no such image' } },
            },
          ],
        },
      }),
    ).toEqual({ state: 'starting', reason: 'ImagePullBackOff', message: 'no such image' });
    expect(
      observedOf({ ...pod, status: { phase: 'Pending' } }, [
        {
          metadata: {},
          involvedObject: {},
          type: 'Warning',
          reason: 'FailedScheduling',
          message: '0/3 nodes are available: 3 Insufficient nvidia.com/gpu.',
          lastTimestamp: new Date(),
        },
      ]),
    ).toEqual({
      state: 'starting',
      reason: 'FailedScheduling',
      message: '0/3 nodes are available: 3 Insufficient nvidia.com/gpu.',
    });
    const ended = observedOf({
      ...pod,
      status: {
        phase: 'Failed',
        containerStatuses: [
          {
            name: 'job',
            image: 'i',
            imageID: '',
            ready: false,
            restartCount: 0,
            state: {
              terminated: {
                exitCode: 137,
                reason: 'OOMKilled',
                startedAt: new Date(1000),
                finishedAt: new Date(2000),
              },
            },
          },
        ],
      },
    });
    expect(ended).toMatchObject({
      state: 'exited',
      exitCode: 137,
      reason: 'OOMKilled',
      finishedAt: new Date(2000),
    });
    expect(
      observedOf({
        ...pod,
        status: { phase: 'Failed', reason: 'Evicted', message: 'low on memory' },
      }),
    ).toMatchObject({
      state: 'exited',
      exitCode: 137,
      reason: 'Evicted',
      message: 'low on memory',
    });
  });

  it('makes pools from node labels and allocatable resources, less the requests on each node', () => {
    const node = (
      name: string,
      pool: string | undefined,
      alloc: Record<string, string>,
      labels = {},
    ) => ({
      metadata: { name, labels: { ...(pool ? { 'orrery.io/node-pool': pool } : {}), ...labels } },
      status: { allocatable: alloc, conditions: [{ type: 'Ready', status: 'True' }] },
    });
    const pools = poolsOf(
      [
        node('n1', 'cpu', { cpu: '8', memory: '32Gi', 'ephemeral-storage': '100Gi' }),
        node('n2', 'cpu', { cpu: '4', memory: '16Gi' }),
        node(
          'g1',
          'gpu',
          { cpu: '32', memory: '128Gi', 'nvidia.com/gpu': '4' },
          { 'nvidia.com/gpu.product': 'A100', 'nvidia.com/gpu.memory': '40960' },
        ),
        node('u', undefined, { cpu: '2', memory: '4Gi' }),
      ],
      [
        {
          spec: {
            nodeName: 'n1',
            containers: [{ name: 'x', resources: { requests: { cpu: '7500m', memory: '30Gi' } } }],
          },
          status: { phase: 'Running' },
        },
      ],
      'orrery.io/node-pool',
    );
    expect(pools.map((p) => p.name)).toEqual(['cpu', 'gpu', 'local']);
    expect(pools[0]).toMatchObject({
      cpu: 8,
      memory: 32 * 2 ** 30,
      diskSize: 100 * 2 ** 30,
      availableCpu: 4,
      availableMemory: 16 * 2 ** 30,
    });
    expect(pools[1]!.gpu).toEqual({
      vendor: 'nvidia',
      count: 4,
      model: 'A100',
      memory: 40960 * 2 ** 20,
    });
  });

  it('makes a job of several workers a Pod per rank and a headless Service', () => {
    const spec = fullSpec({ workers: 4 });
    const pods = gangPodManifests(spec, o);
    const name = 'orrery-job-0b7e0d8a-3f7e-4a51-9a8e-1d2c3b4a5f60';
    expect(pods.map((p) => p.metadata!.name)).toEqual([
      name,
      `${name}-w1`,
      `${name}-w2`,
      `${name}-w3`,
    ]);
    const single = podManifest(spec, o);
    for (const [rank, pod] of pods.entries()) {
      assertValidObject(wire(pod));
      // Each is the job's Pod: its labels (the driver finds it by), preset, volumes, secrets.
      expect(pod.metadata!.labels).toMatchObject({
        'orrery.io/job': spec.id,
        'orrery.io/worker': String(rank),
      });
      const c = pod.spec!.containers[0]!;
      expect(c.resources).toEqual(single.spec!.containers[0]!.resources);
      expect(pod.spec!.volumes).toEqual(single.spec!.volumes);
      // Its host name in the workers' Service, which makes it resolvable.
      expect(pod.spec).toMatchObject({ hostname: `worker-${rank}`, subdomain: `${name}-w` });
      const env = Object.fromEntries(c.env!.map((e) => [e.name, e.value ?? e.valueFrom]));
      expect(env).toMatchObject({
        RANK: String(rank),
        NODE_RANK: String(rank),
        ORRERY_WORKER_RANK: String(rank),
        WORLD_SIZE: '4',
        MASTER_ADDR: `worker-0.${name}-w.orrery-jobs.svc`,
        MASTER_PORT: '29500',
        PLAIN: '1',
        // Secrets stay in the job's one Secret.
        TOKEN: { secretKeyRef: { name: `${name}-secrets`, key: 'env-TOKEN' } },
      });
      // Rank 0 alone serves the HTTP port.
      expect(c.ports?.length ?? 0).toBe(rank === 0 ? 1 : 0);
    }

    const headless = gangServiceManifest(spec, o);
    assertValidObject(wire(headless));
    expect(headless.metadata!.name).toBe(`${name}-w`);
    expect(headless.spec).toEqual({
      clusterIP: 'None',
      publishNotReadyAddresses: true,
      selector: { 'orrery.io/job': spec.id },
    });
    // The HTTP port is rank 0's alone.
    const http = gangHttpServiceManifest(spec, o)!;
    assertValidObject(wire(http));
    expect(http.spec!.selector).toEqual({
      'orrery.io/job': spec.id,
      'orrery.io/worker': '0',
    });
    // The workers reach each other on any port, besides who reaches a job of one.
    const policy = wire(gangNetworkPolicyManifest(spec, o));
    assertValidObject(policy);
    expect(policy.spec.ingress).toEqual([
      {
        from: [
          ...wire(networkPolicyManifest(spec, o)).spec.ingress[0].from,
          { podSelector: { matchLabels: { 'orrery.io/job': spec.id } } },
        ],
      },
    ]);
  });
});
