import { z } from 'zod';

/** The kubernetes runtime's settings (the README's configuration table, ORRERY_KUBE_*). */
export interface KubeOptions {
  /** A kubeconfig file; unset: the in-cluster service account inside a Pod, else KUBECONFIG or ~/.kube/config. */
  configFile?: string;
  /** A context of that kubeconfig; unset: its current context. */
  context?: string;
  /** Where job Pods go; unset: the service account's namespace, else the context's, else `default`. */
  namespace?: string;
  /** The node label whose value names a node's pool. */
  poolLabel: string;
  /** The taint of preemptible nodes, which a preemptible job tolerates. */
  preemptibleTaint: string;
  /** A ReadWriteMany claim holding the storage folder (the server's `<data dir>/storage`). */
  storageClaim?: string;
  /** The storage class of disks' claims; unset: the cluster's default class. */
  diskStorageClass?: string;
  /** How the server reaches a job's HTTP port: its Service's address, or a port-forward. */
  reach?: 'service' | 'port-forward';
}

const name = z
  .string()
  .regex(/^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/, 'must be a Kubernetes name (lower case, digits, -)')
  .max(63);
const label = z
  .string()
  .regex(/^([a-z0-9.-]+\/)?[A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?$/, 'must be a label key');

export const KUBE_ENV = {
  ORRERY_KUBE_CONFIG: z.string().min(1).optional(),
  ORRERY_KUBE_CONTEXT: z.string().min(1).optional(),
  ORRERY_KUBE_NAMESPACE: name.optional(),
  ORRERY_KUBE_POOL_LABEL: label.default('orrery.io/node-pool'),
  ORRERY_KUBE_PREEMPTIBLE_TAINT: label.default('orrery.io/preemptible'),
  ORRERY_KUBE_STORAGE_CLAIM: name.optional(),
  ORRERY_KUBE_DISK_STORAGE_CLASS: name.optional(),
  ORRERY_KUBE_REACH: z.enum(['service', 'port-forward']).optional(),
};

type KubeEnv = z.infer<z.ZodObject<typeof KUBE_ENV>>;

export function kubeOptions(e: KubeEnv): KubeOptions {
  return {
    configFile: e.ORRERY_KUBE_CONFIG,
    context: e.ORRERY_KUBE_CONTEXT,
    namespace: e.ORRERY_KUBE_NAMESPACE,
    poolLabel: e.ORRERY_KUBE_POOL_LABEL,
    preemptibleTaint: e.ORRERY_KUBE_PREEMPTIBLE_TAINT,
    storageClaim: e.ORRERY_KUBE_STORAGE_CLAIM,
    diskStorageClass: e.ORRERY_KUBE_DISK_STORAGE_CLASS,
    reach: e.ORRERY_KUBE_REACH,
  };
}
