import { createHash } from 'node:crypto';
import type { JobLimits } from '../driver.js';

/** Labels every object the driver makes carries, so that a new server finds them again. */
export const JOB_LABEL = 'orrery.io/job';
export const DISK_LABEL = 'orrery.io/disk';
/** A hash of `cluster/org/project` (a label value cannot hold slashes): jobs of one project. */
export const PROJECT_LABEL = 'orrery.io/project';
export const MANAGED_BY = { 'app.kubernetes.io/managed-by': 'orrery' };
/** The label of Orrery's own Pods (deploy/kubernetes): they reach every job's HTTP port. */
export const SERVER_SELECTOR = { 'app.kubernetes.io/name': 'orrery' };
export const CONTAINER = 'job';

/** Annotations: what the jobs service enforces itself, recorded on the Pod for operators. */
export const ANNOTATIONS = {
  project: 'orrery.io/project',
  restartPolicy: 'orrery.io/restart-policy',
  maxRunTime: 'orrery.io/max-run-time-minutes',
  httpPort: 'orrery.io/http-port',
};

/**
 * The Pod, Service and NetworkPolicy of a job share one name (a DNS-1035 label: a Service's
 * name must start with a letter and fit in 63 characters); job ids are `job-<uuid>`.
 */
export function objectName(id: string): string {
  if (!/^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/.test(id) || id.length > 50) {
    throw new Error(`Bad job id ${id}`);
  }
  return `orrery-${id}`;
}

export const secretName = (id: string) => `${objectName(id)}-secrets`;
export const pullSecretName = (id: string) => `${objectName(id)}-pull`;
export const diskClaimName = (diskId: string) => `orrery-${diskId}`.slice(0, 63);

export const projectHash = (project: string) =>
  createHash('sha256').update(project).digest('hex').slice(0, 32);

/** Extended resources of the device plugins of each GPU vendor. */
export const GPU_RESOURCE: Record<NonNullable<JobLimits['gpu']>['vendor'], string> = {
  nvidia: 'nvidia.com/gpu',
  amd: 'amd.com/gpu',
  intel: 'gpu.intel.com/i915',
};

/** Node labels naming the GPU model (NVIDIA's GPU feature discovery, AMD's node labeller). */
export const GPU_MODEL_LABEL: Partial<Record<NonNullable<JobLimits['gpu']>['vendor'], string>> = {
  nvidia: 'nvidia.com/gpu.product',
  amd: 'amd.com/gpu.product-name',
};

/** A Kubernetes quantity (`500m`, `2`, `1Gi`, `1.5G`, `250000n`) as a number of units. */
export function quantity(q: string | number | undefined): number {
  if (q === undefined) return 0;
  if (typeof q === 'number') return q;
  const m = /^([0-9.]+)(n|u|m|k|M|G|T|P|E|Ki|Mi|Gi|Ti|Pi|Ei)?$/.exec(q.trim());
  if (!m) return 0;
  const scale: Record<string, number> = {
    n: 1e-9,
    u: 1e-6,
    m: 1e-3,
    k: 1e3,
    M: 1e6,
    G: 1e9,
    T: 1e12,
    P: 1e15,
    E: 1e18,
    Ki: 2 ** 10,
    Mi: 2 ** 20,
    Gi: 2 ** 30,
    Ti: 2 ** 40,
    Pi: 2 ** 50,
    Ei: 2 ** 60,
  };
  return Number(m[1]) * (m[2] ? scale[m[2]]! : 1);
}
