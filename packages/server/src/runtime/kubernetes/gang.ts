import type { V1NetworkPolicy, V1Pod, V1Service } from '@kubernetes/client-node';
import { rendezvousPort } from '../gang.js';
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
 * indexed set of Pods, one per rank, made together, and a headless Service through which the
 * workers resolve each other (`worker-<rank>.<service>.<namespace>.svc`: each Pod's host name in
 * the Service's subdomain). The driver follows them as one job, as the docker runtime does its
 * containers: rank 0's Pod is the job's own (`orrery-<id>`: the HTTP port), rank r's
 * `orrery-<id>-w<r>`, all labelled with the job's id and their rank; exec, attach and stats
 * reach the rank asked for.
 */

/** The label of a worker's Pod that says its rank. */
export const WORKER_LABEL = 'orrery.io/worker';

/** The headless Service of the workers (a DNS-1035 label: at most 63 characters). */
export const gangServiceName = (id: string) => `${objectName(id)}-w`;

/** Worker `rank`'s Pod. */
export const workerPodName = (id: string, rank: number) =>
  rank === 0 ? objectName(id) : `${objectName(id)}-w${rank}`;

/** A worker's host name, unique in the workers' Service. */
const workerHost = (rank: number) => `worker-${rank}`;

/** Where every worker reaches rank 0: its host name in the workers' Service. */
export function masterAddress(id: string, namespace: string): string {
  return `${workerHost(0)}.${gangServiceName(id)}.${namespace}.svc`;
}

/**
 * The workers' Pods: each the job's Pod (manifests.ts `podManifest`: its preset, placement,
 * volumes, the job's one Secret) told its rank and the master's address, with its host name in
 * the workers' Service. Rank 0 alone serves the job's HTTP port.
 */
export function gangPodManifests(spec: JobSpec, o: ManifestOptions): V1Pod[] {
  const workers = spec.workers ?? 1;
  const rendezvous = {
    address: masterAddress(spec.id, o.namespace),
    port: rendezvousPort(spec.httpPort),
  };
  return [...Array(workers).keys()].map((rank) => {
    const pod = podManifest(
      {
        ...spec,
        httpPort: rank === 0 ? spec.httpPort : undefined,
        env: { ...spec.env, ...gangEnv(rank, workers, rendezvous) },
      },
      o,
    );
    return {
      ...pod,
      metadata: {
        ...pod.metadata,
        name: workerPodName(spec.id, rank),
        labels: { ...pod.metadata!.labels, [WORKER_LABEL]: String(rank) },
      },
      spec: { ...pod.spec!, hostname: workerHost(rank), subdomain: gangServiceName(spec.id) },
    };
  });
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
    spec: { ...service.spec, selector: { ...service.spec!.selector, [WORKER_LABEL]: '0' } },
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
