import { z } from 'zod';
import { formatMemory } from './units.js';

/**
 * The scheduler's wire: resource quotas of organizations and projects, why a job waits and where
 * it stands, and a cluster's queue (docs/scheduling.md). Amounts: `cpu` in cores, `memory` in
 * bytes, GPUs in devices by vendor. In a quota an absent or null field is "no limit".
 */
export const QUOTA_RESOURCES = ['cpu', 'memory', 'nvidia_gpu', 'amd_gpu', 'intel_gpu'] as const;
export type QuotaResource = (typeof QUOTA_RESOURCES)[number];
export type ResourceAmounts = Partial<Record<QuotaResource, number>>;

export const QUOTA_RESOURCE_LABELS: Record<QuotaResource, string> = {
  cpu: 'CPU',
  memory: 'Memory',
  nvidia_gpu: 'NVIDIA GPUs',
  amd_gpu: 'AMD GPUs',
  intel_gpu: 'Intel GPUs',
};

/** The largest amount a quota field takes: far above any cluster, and exact in a float. */
export const QUOTA_MAX = 2 ** 53 - 1;
/** The words for the jobs quota, said of each resource ("Jobs must be a positive number"). */
export const quotaMessage = (label: string) => `${label} must be a positive number`;

const amount = (label: string, int = false) => {
  const n = z
    .number({ error: quotaMessage(label) })
    .min(0, quotaMessage(label))
    .max(QUOTA_MAX, `${label} must be at most ${QUOTA_MAX}`);
  return (int ? n.int(`${label} must be a whole number`) : n).nullable().optional();
};

/** One set of limits, each field's messages naming it with `suffix` ("CPU borrowing limit"). */
const limits = (suffix = '') =>
  z
    .object({
      cpu: amount(`CPU${suffix}`),
      memory: amount(`Memory${suffix}`, true),
      nvidia_gpu: amount(`NVIDIA GPUs${suffix}`, true),
      amd_gpu: amount(`AMD GPUs${suffix}`, true),
      intel_gpu: amount(`Intel GPUs${suffix}`, true),
    })
    .strict();

/** One set of limits: null or absent is unlimited. */
export const ResourceLimits = limits();
export type ResourceLimits = z.infer<typeof ResourceLimits>;
/** How far beyond its nominal quota a consumer may borrow idle capacity of its pool. */
export const BorrowingLimits = limits(' borrowing limit');

/**
 * A project's quota inside its organization: a nominal share and how far it may borrow. The body
 * of `PUT .../projects/{project}/quota`, which replaces the whole quota (absent is unlimited).
 */
export const ProjectQuota = ResourceLimits.extend({
  borrowing_limit: BorrowingLimits.nullable().optional(),
}).strict();
export type ProjectQuota = z.infer<typeof ProjectQuota>;

/** A change by a delta (`additional_quota`): each named amount is added, negative to lower it. */
const delta = (label: string, int = false) => {
  const n = z
    .number({ error: `${label} must be a number` })
    .min(-QUOTA_MAX)
    .max(QUOTA_MAX);
  return (int ? n.int(`${label} must be a whole number`) : n).optional();
};
const deltas = (suffix = '') =>
  z
    .object({
      cpu: delta(`CPU${suffix}`),
      memory: delta(`Memory${suffix}`, true),
      nvidia_gpu: delta(`NVIDIA GPUs${suffix}`, true),
      amd_gpu: delta(`AMD GPUs${suffix}`, true),
      intel_gpu: delta(`Intel GPUs${suffix}`, true),
    })
    .strict();
export const ResourceDeltas = deltas().extend({
  borrowing_limit: deltas(' borrowing limit').optional(),
});

/** A set of limits as answered: every resource named, null where unlimited. */
const Limit = z.number().nullable();
export const LimitsWire = z.object({
  cpu: Limit,
  memory: Limit,
  nvidia_gpu: Limit,
  amd_gpu: Limit,
  intel_gpu: Limit,
});
export type LimitsWire = z.infer<typeof LimitsWire>;
export const QuotaWire = LimitsWire.extend({ borrowing_limit: LimitsWire });
export type QuotaWire = z.infer<typeof QuotaWire>;

/** What running jobs hold now (their presets' resources), and how many run. */
export const QuotaUse = z.object({
  cpu: z.number(),
  memory: z.number(),
  nvidia_gpu: z.number(),
  amd_gpu: z.number(),
  intel_gpu: z.number(),
  total_running_jobs: z.number().int(),
});
export type QuotaUse = z.infer<typeof QuotaUse>;

/** `GET`/`PUT /apis/admin/v1/clusters/{cluster}/orgs/{org}/projects/{project}/quota`. */
export const ProjectQuotaView = QuotaWire.extend({
  cluster_name: z.string(),
  org_name: z.string(),
  project_name: z.string(),
  used: QuotaUse,
}).meta({ id: 'ProjectQuota' });
export type ProjectQuotaView = z.infer<typeof ProjectQuotaView>;

/**
 * `GET /apis/admin/v1/clusters/{cluster}/orgs/{org}/quota`: the organization's quota on the
 * cluster, its use, and the quotas of those of its projects the caller may see.
 */
export const OrgQuotaView = QuotaWire.extend({
  cluster_name: z.string(),
  org_name: z.string(),
  total_running_jobs: z.number().nullable(),
  used: QuotaUse,
  projects: z.array(ProjectQuotaView),
}).meta({ id: 'OrgQuota' });
export type OrgQuotaView = z.infer<typeof OrgQuotaView>;

/** Why a quota change is refused beyond a field's own bounds. */
export const QUOTA_TEXTS = {
  borrowingWithoutQuota: (label: string) =>
    `A borrowing limit of ${label} needs a quota of ${label}: without one, its use is not limited`,
  projectsAbove: (label: string, org: string, projects: string, quota: string) =>
    `${label}: the nominal quotas of the projects of ${org} add up to ${projects}, more than the organization's ${quota}`,
  oneChange: 'Send either quota or additional_quota',
} as const;

/** Why a waiting job is not admitted now; the first reason holds it. */
export type WaitReason =
  | { kind: 'held'; message: string }
  | { kind: 'jobs_cap'; used: number; limit: number }
  | {
      kind: 'quota';
      scope: 'project' | 'organization';
      resource: QuotaResource;
      used: number;
      requested: number;
      nominal: number;
      borrowing_limit: number | null;
    }
  | {
      kind: 'capacity';
      short: QuotaResource[];
      free: { node: string; pool: string; free: ResourceAmounts }[];
      /** A gang's (docs/jobs.md): its workers, and how many of them would fit now. */
      workers?: number;
      fitting?: number;
    }
  | { kind: 'preempting'; victims: string[] }
  | {
      kind: 'reserving';
      node: string;
      /** A gang's (docs/jobs.md): every node kept for its workers, and how many they are. */
      nodes?: string[];
      workers?: number;
    }
  | { kind: 'behind'; ahead: number }
  | { kind: 'never_fits'; message: string };

/** `GET /api/v1/jobs/{id}/scheduling`. */
export interface JobScheduling {
  job_id: string;
  status: string;
  /** 1 is the next job to be admitted among those it competes with; null once it runs or ends. */
  position: number | null;
  reasons: WaitReason[];
  /** The reasons in plain words, as the job's history says them. */
  message: string | null;
}

export interface QueueStanding {
  /** Nominal and borrowing limit; null where none is set (unlimited). */
  quota: { nominal: ResourceAmounts; borrowing_limit: ResourceAmounts } | null;
  /** What its running jobs hold now. */
  used: ResourceAmounts;
  /** The part of `used` beyond its nominal quota. */
  borrowed: ResourceAmounts;
  /** Its weighted dominant share of recent use: below 1 means below its fair share. */
  share: number;
  running: number;
  pending: number;
}

/** `GET /apis/admin/v1/clusters/{cluster}/queue`. */
export interface ClusterQueue {
  cluster: string;
  capacity: ResourceAmounts;
  free: ResourceAmounts;
  orgs: (QueueStanding & { org: string; projects: (QueueStanding & { project: string })[] })[];
  jobs: {
    id: string;
    name: string | null;
    org: string;
    project: string;
    owner: string;
    status: string;
    priority: string;
    preemptible: boolean;
    requests: ResourceAmounts;
    position: number | null;
    message: string | null;
  }[];
}

export const formatAmount = (r: QuotaResource, v: number) =>
  r === 'memory'
    ? formatMemory(v)
    : r === 'cpu'
      ? `${+v.toFixed(2)} CPU`
      : `${v} ${QUOTA_RESOURCE_LABELS[r]}`;

const formatFree = (free: ResourceAmounts, short: QuotaResource[]) =>
  short.map((r) => formatAmount(r, free[r] ?? 0)).join(', ');

/** One reason in a sentence, for the job's history, the job page and the assistant. */
export function describeWait(r: WaitReason): string {
  switch (r.kind) {
    case 'held':
    case 'never_fits':
      return r.message;
    case 'jobs_cap':
      return `Waiting for the organization's jobs quota: ${r.used} of ${r.limit} jobs run`;
    case 'quota': {
      const whose = r.scope === 'project' ? "the project's" : "the organization's";
      const limit =
        r.borrowing_limit === null
          ? ''
          : `, borrowing up to ${formatAmount(r.resource, r.borrowing_limit)}`;
      return `Waiting for ${whose} quota of ${QUOTA_RESOURCE_LABELS[r.resource]}: ${formatAmount(r.resource, r.used)} in use of ${formatAmount(r.resource, r.nominal)}${limit}; the job needs ${formatAmount(r.resource, r.requested)}`;
    }
    case 'capacity': {
      const best = r.free[0];
      if (r.workers)
        return `Waiting for free capacity for all ${r.workers} workers at once (a job of several workers starts whole): ${r.fitting ?? 0} of them fit now`;
      const where = best ? `; most free on ${best.node}: ${formatFree(best.free, r.short)}` : '';
      return `Waiting for free capacity: no node has the ${r.short.map((s) => QUOTA_RESOURCE_LABELS[s]).join(', ')} the job needs${where}`;
    }
    case 'preempting':
      return `Starting soon: ${r.victims.length} preemptible job(s) are giving their capacity back`;
    case 'reserving':
      if (r.workers)
        return `Capacity is being kept for all ${r.workers} workers (the job waited long enough): no job behind it starts on ${r.nodes?.length === 1 ? 'node' : 'nodes'} ${(r.nodes ?? [r.node]).join(', ')} before it does`;
      return `Waited long enough to reserve node ${r.node}: nothing smaller starts there before it`;
    case 'behind':
      return `Behind ${r.ahead} job(s) of higher fair share or priority`;
  }
}

/** The reasons of one waiting job in plain words (the first holds it; `behind` follows). */
export const describeWaits = (reasons: WaitReason[]) => reasons.map(describeWait).join('. ');

/** The response schema of `GET /api/v1/jobs/{id}/scheduling` (reasons as `WaitReason`). */
export const JobSchedulingWire = z
  .object({
    job_id: z.string(),
    status: z.string(),
    position: z.number().int().nullable(),
    reasons: z.array(z.looseObject({ kind: z.string() })),
    message: z.string().nullable(),
  })
  .meta({ id: 'JobScheduling' });
