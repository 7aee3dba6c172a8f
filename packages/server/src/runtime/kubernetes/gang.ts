import type { V1EnvVar, V1Job, V1NetworkPolicy, V1Service } from '@kubernetes/client-node';
import { gangEnv, type JobSpec } from '../driver.js';
import {
  networkPolicyManifest,
  podManifest,
  serviceManifest,
  type ManifestOptions,
} from './manifests.js';
import { JOB_LABEL, objectName } from './names.js';

/**
 * The objects of a job of several workers on Kubernetes (docs/jobs.md "Distributed jobs"): an
 * Indexed Job of N Pods started together (completions and parallelism N), each Pod's rank its
 * completion index, and a headless Service through which the workers resolve each other
 * (`<job>-<rank>.<service>`, the Pod's host name in the Service's subdomain). A failed worker
 * fails the Job (no retries: `backoffLimit` 0), and the Job controller stops the others.
 */

/** Where Kubernetes writes a Pod's completion index (its rank) on an Indexed Job's Pods. */
export const COMPLETION_INDEX = 'batch.kubernetes.io/job-completion-index';
/** PyTorch's default rendezvous port: each worker is a Pod of its own, with its own ports. */
export const RENDEZVOUS_PORT = 29500;

/** The headless Service of the workers (a DNS-1035 label: at most 63 characters). */
export const gangServiceName = (id: string) => `${objectName(id)}-w`;

/** Where every worker reaches rank 0: its host name in the workers' Service. */
export function masterAddress(id: string, namespace: string): string {
  return `${objectName(id)}-0.${gangServiceName(id)}.${namespace}.svc`;
}

/** The names under which gangEnv tells a worker its rank: read from the Pod's completion index. */
const RANK_VARIABLES = ['ORRERY_WORKER_RANK', 'RANK', 'NODE_RANK', 'PET_NODE_RANK'];

/**
 * The Indexed Job: its Pod template is the job's Pod (manifests.ts `podManifest`, with its
 * preset, placement, volumes and secrets) told the gang's environment, the rank from the Pod's
 * own completion index (downward API), the master's address in the headless Service.
 */
export function gangJobManifest(spec: JobSpec, o: ManifestOptions): V1Job {
  const workers = spec.workers ?? 1;
  const port = spec.httpPort === RENDEZVOUS_PORT ? RENDEZVOUS_PORT + 1 : RENDEZVOUS_PORT;
  const address = masterAddress(spec.id, o.namespace);
  const pod = podManifest(
    { ...spec, env: { ...spec.env, ...gangEnv(0, workers, { address, port }) } },
    o,
  );
  const rank: V1EnvVar['valueFrom'] = {
    fieldRef: { fieldPath: `metadata.annotations['${COMPLETION_INDEX}']` },
  };
  const [container, ...rest] = pod.spec!.containers;
  const env = (container!.env ?? []).map((e) =>
    RANK_VARIABLES.includes(e.name) ? { name: e.name, valueFrom: rank } : e,
  );
  // The Job controller names each Pod's host `<job>-<index>`; the subdomain makes it resolvable.
  const { hostname: _, ...podSpec } = pod.spec!;
  return {
    apiVersion: 'batch/v1',
    kind: 'Job',
    metadata: { ...pod.metadata },
    spec: {
      completionMode: 'Indexed',
      completions: workers,
      parallelism: workers,
      backoffLimit: 0,
      template: {
        metadata: { labels: pod.metadata!.labels, annotations: pod.metadata!.annotations },
        spec: {
          ...podSpec,
          subdomain: gangServiceName(spec.id),
          containers: [{ ...container!, env }, ...rest],
        },
      },
    },
  };
}

/**
 * The headless Service of the workers: no address of its own, a DNS record per Pod, published
 * before the Pods are ready (a rendezvous starts at once).
 */
export function gangServiceManifest(spec: JobSpec, o: ManifestOptions): V1Service {
  return {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: {
      name: gangServiceName(spec.id),
      namespace: o.namespace,
      labels: { ...podManifest(spec, o).metadata!.labels },
    },
    spec: {
      clusterIP: 'None',
      publishNotReadyAddresses: true,
      selector: { [JOB_LABEL]: spec.id },
    },
  };
}

/** The Service of the job's HTTP port: rank 0's alone (null without one). */
export function gangHttpServiceManifest(spec: JobSpec, o: ManifestOptions): V1Service | null {
  const service = serviceManifest(spec, o);
  if (!service) return null;
  return {
    ...service,
    spec: { ...service.spec, selector: { ...service.spec!.selector, [COMPLETION_INDEX]: '0' } },
  };
}

/** The job's NetworkPolicy, which also lets its workers reach each other, on any port. */
export function gangNetworkPolicyManifest(spec: JobSpec, o: ManifestOptions): V1NetworkPolicy {
  const policy = networkPolicyManifest(spec, o);
  const [rule] = policy.spec!.ingress!;
  const peers = { podSelector: { matchLabels: { [JOB_LABEL]: spec.id } } };
  return {
    ...policy,
    spec: { ...policy.spec, ingress: [{ _from: [...(rule?._from ?? []), peers] }] },
  };
}
