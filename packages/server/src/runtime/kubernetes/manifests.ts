import type {
  V1Affinity,
  V1EnvVar,
  V1NetworkPolicy,
  V1NetworkPolicyPeer,
  V1PersistentVolumeClaim,
  V1Pod,
  V1Secret,
  V1Service,
  V1Toleration,
  V1Volume,
  V1VolumeMount,
} from '@kubernetes/client-node';
import { shellCommand, shellSplit } from '../common.js';
import type { JobMount, JobSpec } from '../driver.js';
import {
  ANNOTATIONS,
  CONTAINER,
  DISK_LABEL,
  GPU_MODEL_LABEL,
  GPU_RESOURCE,
  JOB_LABEL,
  MANAGED_BY,
  PROJECT_LABEL,
  SERVER_SELECTOR,
  diskClaimName,
  objectName,
  projectHash,
  pullSecretName,
  secretName,
} from './names.js';

export interface ManifestOptions {
  namespace: string;
  poolLabel: string;
  preemptibleTaint: string;
  /** The claim holding the storage folder; unset: storage volumes are refused. */
  storageClaim?: string;
  diskStorageClass?: string;
  killGraceMs: number;
}

const b64 = (v: string | Buffer) => Buffer.from(v).toString('base64');

function metadata(spec: JobSpec, o: ManifestOptions, name = objectName(spec.id)) {
  return {
    name,
    namespace: o.namespace,
    labels: {
      ...MANAGED_BY,
      [JOB_LABEL]: spec.id,
      ...(spec.project ? { [PROJECT_LABEL]: projectHash(spec.project) } : {}),
    },
  };
}

/**
 * The Secret of a job: its secret env (`env-NAME`) and the bytes of each secret volume
 * (`volume-N`), so that secret values never sit in the Pod's own manifest. Null without secrets.
 */
export function secretManifest(
  spec: JobSpec,
  o: ManifestOptions,
  volumes: Buffer[],
): V1Secret | null {
  const env = spec.secretEnv ?? [];
  if (env.length === 0 && volumes.length === 0) return null;
  const data: Record<string, string> = {};
  for (const k of env) data[`env-${k}`] = b64(spec.env[k] ?? '');
  volumes.forEach((v, i) => (data[`volume-${i}`] = b64(v)));
  return {
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: metadata(spec, o, secretName(spec.id)),
    type: 'Opaque',
    data,
  };
}

/** Credentials for the project's registry, as an image pull secret. Null without them. */
export function pullSecretManifest(spec: JobSpec, o: ManifestOptions): V1Secret | null {
  const a = spec.registryAuth;
  if (!a) return null;
  const auth = b64(`${a.username}:${a.password}`);
  const config = {
    auths: { [a.serveraddress]: { username: a.username, password: a.password, auth } },
  };
  return {
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: metadata(spec, o, pullSecretName(spec.id)),
    type: 'kubernetes.io/dockerconfigjson',
    data: { '.dockerconfigjson': b64(JSON.stringify(config)) },
  };
}

/** A disk's claim: made on the first job that mounts it, kept until the disk is deleted. */
export function diskClaimManifest(
  disk: { id: string; bytes: number },
  o: ManifestOptions,
): V1PersistentVolumeClaim {
  return {
    apiVersion: 'v1',
    kind: 'PersistentVolumeClaim',
    metadata: {
      name: diskClaimName(disk.id),
      namespace: o.namespace,
      labels: { ...MANAGED_BY, [DISK_LABEL]: disk.id },
    },
    spec: {
      accessModes: ['ReadWriteOnce'],
      resources: { requests: { storage: String(disk.bytes) } },
      ...(o.diskStorageClass ? { storageClassName: o.diskStorageClass } : {}),
    },
  };
}

/** The Service in front of the job's HTTP port (null without one). */
export function serviceManifest(spec: JobSpec, o: ManifestOptions): V1Service | null {
  if (!spec.httpPort) return null;
  return {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: metadata(spec, o),
    spec: {
      type: 'ClusterIP',
      selector: { [JOB_LABEL]: spec.id },
      ports: [{ name: 'http', protocol: 'TCP', port: spec.httpPort, targetPort: spec.httpPort }],
    },
  };
}

/**
 * Who may reach the job: Orrery's own Pods (its ingress) and the jobs of the same project,
 * as the relays of the local runtimes allow; nothing else in the cluster.
 */
export function networkPolicyManifest(spec: JobSpec, o: ManifestOptions): V1NetworkPolicy {
  const from: V1NetworkPolicyPeer[] = [
    { namespaceSelector: {}, podSelector: { matchLabels: SERVER_SELECTOR } },
  ];
  if (spec.project) {
    from.push({
      namespaceSelector: {},
      podSelector: { matchLabels: { [PROJECT_LABEL]: projectHash(spec.project) } },
    });
  }
  return {
    apiVersion: 'networking.k8s.io/v1',
    kind: 'NetworkPolicy',
    metadata: metadata(spec, o),
    spec: {
      podSelector: { matchLabels: { [JOB_LABEL]: spec.id } },
      policyTypes: ['Ingress'],
      // `_from` is client-node's name of the field `from` (a reserved word in its generator).
      ingress: [{ _from: from }],
    },
  };
}

/** Volumes and mounts of the job's storage folders, disks, secret files and /dev/shm. */
function volumesOf(spec: JobSpec, o: ManifestOptions) {
  const volumes: V1Volume[] = [];
  const mounts: V1VolumeMount[] = [];
  let secrets = 0;
  spec.mounts.forEach((m: JobMount, i) => {
    const source = m.source;
    const name = `v${i}`;
    if (source?.kind === 'storage') {
      if (!o.storageClaim) {
        throw new Error(
          'Storage volumes on the kubernetes runtime need ORRERY_KUBE_STORAGE_CLAIM, the claim holding the storage folder',
        );
      }
      if (!volumes.some((v) => v.name === 'storage')) {
        volumes.push({ name: 'storage', persistentVolumeClaim: { claimName: o.storageClaim } });
      }
      mounts.push({
        name: 'storage',
        mountPath: m.dstPath,
        subPath: source.path,
        readOnly: m.readOnly,
      });
    } else if (source?.kind === 'disk') {
      volumes.push({ name, persistentVolumeClaim: { claimName: diskClaimName(source.id) } });
      mounts.push({ name, mountPath: m.dstPath, readOnly: m.readOnly });
    } else if (source?.kind === 'secret') {
      const key = `volume-${secrets++}`;
      volumes.push({
        name,
        secret: {
          secretName: secretName(spec.id),
          items: [{ key, path: 'value' }],
          defaultMode: 0o444,
        },
      });
      mounts.push({ name, mountPath: m.dstPath, subPath: 'value', readOnly: true });
    } else {
      // A host path means nothing on a cluster's node: the mount must say what it is.
      throw new Error(
        `The kubernetes runtime cannot mount ${m.dstPath}: it is not a storage folder, disk or secret`,
      );
    }
  });
  if (spec.limits.shm) {
    volumes.push({
      name: 'shm',
      emptyDir: { medium: 'Memory', sizeLimit: String(spec.limits.memory) },
    });
    mounts.push({ name: 'shm', mountPath: '/dev/shm' });
  }
  return { volumes, mounts };
}

function envOf(spec: JobSpec): V1EnvVar[] {
  const secret = new Set(spec.secretEnv ?? []);
  return Object.entries(spec.env).map(([name, value]) =>
    secret.has(name)
      ? { name, valueFrom: { secretKeyRef: { name: secretName(spec.id), key: `env-${name}` } } }
      : { name, value },
  );
}

/** Node pool → node selector (one pool) or affinity (several); a GPU model → its node label. */
function placementOf(spec: JobSpec, o: ManifestOptions) {
  const pools = spec.placement?.pools ?? [];
  const selector: Record<string, string> = {};
  let affinity: V1Affinity | undefined;
  if (pools.length === 1) selector[o.poolLabel] = pools[0]!;
  if (pools.length > 1) {
    affinity = {
      nodeAffinity: {
        requiredDuringSchedulingIgnoredDuringExecution: {
          nodeSelectorTerms: [
            { matchExpressions: [{ key: o.poolLabel, operator: 'In', values: pools }] },
          ],
        },
      },
    };
  }
  const gpu = spec.limits.gpu;
  const modelLabel = gpu?.model ? GPU_MODEL_LABEL[gpu.vendor] : undefined;
  if (gpu?.model && modelLabel) selector[modelLabel] = gpu.model;
  const tolerations: V1Toleration[] = spec.placement?.preemptible
    ? [{ key: o.preemptibleTaint, operator: 'Exists' }]
    : [];
  // GPU nodes are commonly tainted with their resource's name so that only GPU work lands there.
  if (gpu) tolerations.push({ key: GPU_RESOURCE[gpu.vendor], operator: 'Exists' });
  return { selector, affinity, tolerations };
}

/**
 * The job's Pod. `restartPolicy: Never`: the jobs service restarts a job itself (counted, with
 * back-off, billed from each new start) by making a new Pod, and enforces the maximum run time
 * (which a user may extend, while a Pod's `activeDeadlineSeconds` can only shrink); both are
 * recorded as annotations. The service account token is not mounted: a job has no business
 * with the API server.
 */
export function podManifest(spec: JobSpec, o: ManifestOptions): V1Pod {
  const { volumes, mounts } = volumesOf(spec, o);
  const { selector, affinity, tolerations } = placementOf(spec, o);
  const gpu = spec.limits.gpu;
  const resources = {
    cpu: `${Math.max(1, Math.round(spec.limits.cpu * 1000))}m`,
    memory: String(spec.limits.memory),
    ...(gpu ? { [GPU_RESOURCE[gpu.vendor]]: String(gpu.count) } : {}),
  };
  const command = shellCommand(spec);
  const p = spec.placement;
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      ...metadata(spec, o),
      annotations: {
        ...(spec.project ? { [ANNOTATIONS.project]: spec.project } : {}),
        ...(p ? { [ANNOTATIONS.restartPolicy]: p.restartPolicy } : {}),
        ...(p?.maxRunTimeMinutes ? { [ANNOTATIONS.maxRunTime]: String(p.maxRunTimeMinutes) } : {}),
        ...(spec.httpPort ? { [ANNOTATIONS.httpPort]: String(spec.httpPort) } : {}),
      },
    },
    spec: {
      restartPolicy: 'Never',
      hostname: spec.id,
      automountServiceAccountToken: false,
      enableServiceLinks: false,
      terminationGracePeriodSeconds: Math.ceil(o.killGraceMs / 1000),
      ...(Object.keys(selector).length ? { nodeSelector: selector } : {}),
      ...(affinity ? { affinity } : {}),
      ...(tolerations.length ? { tolerations } : {}),
      ...(spec.registryAuth ? { imagePullSecrets: [{ name: pullSecretName(spec.id) }] } : {}),
      containers: [
        {
          name: CONTAINER,
          image: spec.image,
          // As on the docker runtime: with an entrypoint both run under `sh -c`; a bare command
          // is the image entrypoint's arguments.
          ...(spec.entrypoint
            ? { command: ['/bin/sh', '-c', command] }
            : spec.command
              ? { args: shellSplit(spec.command) }
              : {}),
          ...(spec.workingDir ? { workingDir: spec.workingDir } : {}),
          env: envOf(spec),
          resources: { requests: resources, limits: resources },
          ...(spec.httpPort
            ? { ports: [{ name: 'http', containerPort: spec.httpPort, protocol: 'TCP' }] }
            : {}),
          volumeMounts: mounts,
          tty: spec.tty,
          // Kept open so that `attach` can write to the job (the CLI's `apolo run -t`).
          stdin: spec.tty,
          securityContext: spec.privileged
            ? { privileged: true }
            : { allowPrivilegeEscalation: false, capabilities: { drop: ['NET_RAW'] } },
        },
      ],
      volumes,
    },
  };
}
