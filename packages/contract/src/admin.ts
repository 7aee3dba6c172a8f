import { z } from 'zod';
import { GpuVendor, GPU_VENDORS } from './clusters.js';
import { Credits } from './people.js';
import { BOUND_TEXTS, DECIMAL_MAX, fitsDecimal, INT4_MAX } from './bounds.js';
import { USERNAME, USERNAME_MAX, USERNAME_MESSAGE, USERNAME_MIN } from './names.js';
import { MEMORY_UNITS, formatMemory, type MemoryUnit } from './units.js';
import { ProjectQuota, QuotaWire } from './scheduling.js';

/**
 * The admin area: system users, clusters and their
 * organizations, resource presets and node pools. The form rules live here once, for the
 * server's checks and the console's forms.
 */

export const PRESET_MIN_CPU = 0.01;
export const PRESET_MIN_MEMORY = 64_000_000;
// Memory units live apart so that the scheduling wire can format amounts without this file.
export { MEMORY_UNITS, formatMemory, type MemoryUnit } from './units.js';

export const ADMIN_TEXTS = {
  presetNoFit: "This preset won't fit into any node pool",
  nameRequired: 'Name is required',
  cpuMin: 'Number of CPU cores cannot be less than 0.01 cores',
  cpuMax: 'Number of CPU cores cannot be larger than number of cores in any node pool',
  cpuNaN: 'Number of CPU cores is not a number',
  memoryNaN: 'Memory is not a number',
  memoryBlank: 'Memory cannot be blank',
  memoryMin: `Memory cannot be less than ${formatMemory(PRESET_MIN_MEMORY)}`,
  memoryMax: 'Memory cannot be larger than amount of memory in any node pool',
  creditsInvalid: 'Credits per hour must be a non-negative number',
  gpuZero: 'Number cannot be 0 for GPU model',
  gpuMax: 'Number cannot be larger than number of GPUs for selected GPU model',
  gpuModelUnknown: 'No node pool has this GPU model',
  poolUnknown: (name: string) => `Node pool ${name} does not exist`,
  poolUpdated: (name: string) => `Provider node pool ${name} is updated`,
  idleNote: (n: number) => `Idle nodes can be up to ${n} (difference between max and min)`,
  idleMax: (n: number) => `Idle nodes cannot be more than ${n}`,
  numberInvalid: 'Must be a non-negative number',
  wattsOrder: 'Maximum watts cannot be less than minimum watts',
  jobsInvalid: 'Jobs must be a positive number',
  storageCreditsUpdated: (volume: string) => `Credits updated for ${volume} storage volume`,
  noOrganizations: 'No organizations found',
  presetTaken: 'A preset with this name already exists',
  usernameRequired: 'Username is required',
  emailInvalid: 'Enter a valid e-mail address',
} as const;

/**
 * A non-negative decimal given as a number or a string (forms send strings), below `max`: what
 * its column holds (bounds.ts).
 */
const nonNegative = (message: string, max: { value: number; message: string }) =>
  z.union([z.number(), z.string().trim()]).transform((v, ctx) => {
    const n = typeof v === 'number' ? v : v === '' ? NaN : Number(v);
    if (!Number.isFinite(n) || n < 0) {
      ctx.addIssue({ code: 'custom', message });
      return z.NEVER;
    }
    if (n >= max.value) {
      ctx.addIssue({ code: 'custom', message: max.message });
      return z.NEVER;
    }
    return n;
  });
const CREDITS = { value: DECIMAL_MAX, message: BOUND_TEXTS.decimalMax };
const INT4 = { value: INT4_MAX + 1, message: BOUND_TEXTS.intMax };
/** Watts are `double precision`: any finite number fits. */
const ANY = { value: Infinity, message: '' };

const PresetGpu = z.object({
  count: z.number().int().min(0),
  // The SDK writes null for what it does not know.
  model: z
    .string()
    .min(1)
    .nullish()
    .transform((v) => v ?? undefined),
  memory: z.number().nullish(),
});

/**
 * The Apolo SDK has written GPUs in two ways: `nvidia_gpu: {count, model, memory}`, and earlier
 * `nvidia_gpu: 2` with `nvidia_gpu_model`; both arrive as the first, and `null` means none.
 */
function normalizeGpus(raw: unknown) {
  if (!raw || typeof raw !== 'object') return raw;
  const o = { ...(raw as Record<string, unknown>) };
  for (const v of GPU_VENDORS) {
    const gpu = o[`${v}_gpu`];
    const model = o[`${v}_gpu_model`];
    if (gpu === null || gpu === 0) delete o[`${v}_gpu`];
    else if (typeof gpu === 'number')
      o[`${v}_gpu`] = { count: gpu, ...(typeof model === 'string' ? { model } : {}) };
  }
  return o;
}

/** A preset as written by the console or `apolo admin` (the rules that need no cluster). */
export const PresetFields = z.object({
  name: z.string().trim().min(1, ADMIN_TEXTS.nameRequired).max(100),
  cpu: z.number({ message: ADMIN_TEXTS.cpuNaN }).min(PRESET_MIN_CPU, ADMIN_TEXTS.cpuMin),
  memory: z
    .number({ message: ADMIN_TEXTS.memoryNaN })
    .int()
    .min(PRESET_MIN_MEMORY, ADMIN_TEXTS.memoryMin),
  credits_per_hour: nonNegative(ADMIN_TEXTS.creditsInvalid, CREDITS).transform(String),
  scheduler_enabled: z.boolean().default(false),
  preemptible_node: z.boolean().default(false),
  nvidia_gpu: PresetGpu.optional(),
  amd_gpu: PresetGpu.optional(),
  intel_gpu: PresetGpu.optional(),
  /** Unset or empty: every pool the preset fits. */
  resource_pool_names: z.array(z.string()).nullish(),
});
export const PresetInput = z.preprocess(normalizeGpus, PresetFields);
export type PresetInput = z.infer<typeof PresetFields>;

/** What a node pool offers, as the preset rules need it. */
export interface PoolCapacity {
  name: string;
  cpu: number;
  memory: number;
  isPreemptible: boolean;
  gpus: Partial<Record<GpuVendor, { count: number; model?: string }>>;
}
export interface PresetShape {
  cpu: number;
  memory: number;
  isPreemptible: boolean;
  gpus: Partial<Record<GpuVendor, { count: number; model?: string }>>;
}

export const presetGpus = (p: Pick<PresetInput, 'nvidia_gpu' | 'amd_gpu' | 'intel_gpu'>) =>
  Object.fromEntries(
    GPU_VENDORS.flatMap((v) => {
      const g = p[`${v}_gpu`];
      return g && (g.count > 0 || g.model) ? [[v, { count: g.count, model: g.model }]] : [];
    }),
  ) as PresetShape['gpus'];

/** Whether a preset fits a pool: cpu, memory, preemptibility and every GPU asked for. */
export const fitsPool = (p: PresetShape, pool: PoolCapacity) =>
  p.cpu <= pool.cpu &&
  p.memory <= pool.memory &&
  p.isPreemptible === pool.isPreemptible &&
  GPU_VENDORS.every((v) => {
    const want = p.gpus[v];
    if (!want || want.count === 0) return true;
    const have = pool.gpus[v];
    return !!have && have.count >= want.count && (!want.model || have.model === want.model);
  });

export interface FieldIssue {
  path: string;
  message: string;
}

/**
 * The preset rules that depend on the cluster's node pools, with the field each
 * message belongs to. The name carries "won't fit" when the fields are each fine but no single
 * pool holds them together — preemptibility included, which must match the pool's.
 */
export function presetPoolIssues(p: PresetShape, pools: PoolCapacity[]): FieldIssue[] {
  const issues: FieldIssue[] = [];
  const maxCpu = Math.max(0, ...pools.map((x) => x.cpu));
  const maxMemory = Math.max(0, ...pools.map((x) => x.memory));
  if (p.cpu > maxCpu) issues.push({ path: 'cpu', message: ADMIN_TEXTS.cpuMax });
  if (p.memory > maxMemory) issues.push({ path: 'memory', message: ADMIN_TEXTS.memoryMax });
  for (const v of GPU_VENDORS) {
    const want = p.gpus[v];
    if (!want) continue;
    if (want.model && want.count === 0) {
      issues.push({ path: `${v}_gpu.count`, message: ADMIN_TEXTS.gpuZero });
      continue;
    }
    const same = pools.filter((x) => x.gpus[v] && (!want.model || x.gpus[v]!.model === want.model));
    if (want.model && same.length === 0) {
      issues.push({ path: `${v}_gpu.model`, message: ADMIN_TEXTS.gpuModelUnknown });
    } else if (want.count > Math.max(0, ...same.map((x) => x.gpus[v]!.count))) {
      issues.push({ path: `${v}_gpu.count`, message: ADMIN_TEXTS.gpuMax });
    }
  }
  if (issues.length === 0 && !pools.some((x) => fitsPool(p, x))) {
    issues.push({ path: 'name', message: ADMIN_TEXTS.presetNoFit });
  }
  return issues;
}

/**
 * The console's memory field: a number and a unit. Blank and not-a-number are told apart (each
 * has its own message); the result is bytes.
 */
export function memoryOfField(
  raw: string,
  unit: MemoryUnit,
): { bytes: number } | { error: string } {
  if (raw.trim() === '') return { error: ADMIN_TEXTS.memoryBlank };
  const n = Number(raw.trim());
  if (!Number.isFinite(n)) return { error: ADMIN_TEXTS.memoryNaN };
  const bytes = Math.round(n * MEMORY_UNITS[unit]);
  if (bytes < PRESET_MIN_MEMORY) return { error: ADMIN_TEXTS.memoryMin };
  return { bytes };
}

/** Node pool edit: numbers, strings converted; min and max are read-only. */
export const NodePoolPatch = z
  .object({
    idle_size: nonNegative(ADMIN_TEXTS.numberInvalid, INT4)
      .refine(Number.isInteger, ADMIN_TEXTS.numberInvalid)
      .optional(),
    cpu_min_watts: nonNegative(ADMIN_TEXTS.numberInvalid, ANY).optional(),
    cpu_max_watts: nonNegative(ADMIN_TEXTS.numberInvalid, ANY).optional(),
  })
  .refine(
    (v) =>
      v.cpu_min_watts === undefined ||
      v.cpu_max_watts === undefined ||
      v.cpu_max_watts >= v.cpu_min_watts,
    { path: ['cpu_max_watts'], message: ADMIN_TEXTS.wattsOrder },
  );

/** The rule of a node pool's idle size against its read-only min and max. */
export const idleSizeIssue = (idle: number, pool: { minSize: number; maxSize: number }) =>
  idle > pool.maxSize - pool.minSize ? ADMIN_TEXTS.idleMax(pool.maxSize - pool.minSize) : null;

const Usage = z.object({
  cpu: z.number(),
  memory: z.number(),
  nvidia_gpu: z.number(),
  amd_gpu: z.number(),
  intel_gpu: z.number(),
});
/** A node pool of the admin area's Nodes tab: its shape, live capacity and what jobs use. */
export const NodePoolStatus = z
  .object({
    name: z.string(),
    min_size: z.number().int(),
    max_size: z.number().int(),
    idle_size: z.number().int(),
    cpu_min_watts: z.number(),
    cpu_max_watts: z.number(),
    is_preemptible: z.boolean(),
    cpu: z.number(),
    memory: z.number(),
    gpus: z.array(z.object({ make: GpuVendor, count: z.number(), model: z.string().nullable() })),
    capacity: Usage,
    used: Usage,
    /** The pool's machines where the runtime reports them one by one (Slurm); absent otherwise. */
    nodes: z
      .array(
        z.object({
          name: z.string(),
          state: z.enum(['idle', 'mix', 'alloc', 'down', 'drain', 'unknown']),
          /** Why a node is down or drained, as its administrator or the scheduler said. */
          reason: z.string().nullable(),
        }),
      )
      .optional(),
  })
  .meta({ id: 'NodePoolStatus' });
export type NodePoolStatusWire = z.infer<typeof NodePoolStatus>;

/** Cluster organization quota: empty or a number of at least 0. */
export const JobsQuota = z.union([z.number(), z.string().trim(), z.null()]).transform((v, ctx) => {
  if (v === null || v === '') return null;
  const n = Number(v);
  if (!Number.isInteger(n) || n < 0) {
    ctx.addIssue({ code: 'custom', message: ADMIN_TEXTS.jobsInvalid });
    return z.NEVER;
  }
  if (n > INT4_MAX) {
    ctx.addIssue({ code: 'custom', message: BOUND_TEXTS.intMax });
    return z.NEVER;
  }
  return n;
});

export const ClusterOrg = z
  .object({
    org_name: z.string(),
    balance: z.object({ credits: z.string().nullable(), spent_credits: z.string() }),
    /** Apolo's jobs quota, with the resource quotas of the scheduler beside it (docs/quotas.md). */
    quota: QuotaWire.extend({ total_running_jobs: z.number().nullable() }),
    default_credits: z.string().nullable(),
    default_quota: z.object({ total_running_jobs: z.number().nullable() }),
    default_role: z.string(),
    storage_size: z.number().nullable(),
    maintenance: z.boolean(),
  })
  .meta({ id: 'ClusterOrg' });
export type ClusterOrgWire = z.infer<typeof ClusterOrg>;
/**
 * What `apolo admin add-org-cluster` / `update-org-cluster` may set here: the jobs quota. Credits
 * are kept per organization (set-org-credits) and defaults for new cluster members are not kept,
 * so a value for either is refused, not dropped; the client's "unlimited" (no value) passes.
 * `storage_size` is read and ignored, as Apolo ignores it for elastic storage (the file tree).
 */
export const ORG_CLUSTER_TEXTS = {
  credits:
    'Credits are kept per organization on this installation: set them with set-org-credits or add-org-credits',
  defaults:
    'Defaults for new cluster members (credits, jobs, role) are not kept on this installation',
};
const unset = (message: string) => z.null({ error: message }).optional();
/**
 * An organization's quota on a cluster as sent. The jobs quota keeps Apolo's rule: absent is
 * unlimited (the official client leaves it out for "unlimited"). A resource field or
 * `borrowing_limit` absent keeps what is set, null clears it.
 */
export const OrgQuotaInput = ProjectQuota.extend({
  total_running_jobs: JobsQuota.default(null),
}).strict();
export type OrgQuotaInput = z.infer<typeof OrgQuotaInput>;

export const ClusterOrgAdd = z.object({
  org_name: z.string().min(1),
  quota: OrgQuotaInput.default({ total_running_jobs: null }),
  balance: z
    .object({ credits: unset(ORG_CLUSTER_TEXTS.credits), spent_credits: z.unknown() })
    .optional(),
  default_credits: unset(ORG_CLUSTER_TEXTS.defaults),
  default_quota: z.object({ total_running_jobs: unset(ORG_CLUSTER_TEXTS.defaults) }).optional(),
  default_role: z.literal('user', { error: ORG_CLUSTER_TEXTS.defaults }).optional(),
});
export const ClusterOrgUpdate = ClusterOrgAdd.omit({ org_name: true });

export const AdminCluster = z
  .object({
    name: z.string(),
    location: z.string().nullable(),
    default_credits: z.string().nullable(),
    default_quota: z.object({ total_running_jobs: z.number().nullable() }),
    default_role: z.string(),
    maintenance: z.boolean(),
    orgs_count: z.number().int(),
  })
  .meta({ id: 'AdminCluster' });

export const StorageVolumeCredits = z.object({
  credits_per_hour_per_gb: nonNegative(ADMIN_TEXTS.creditsInvalid, CREDITS).transform(String),
});

/** The price of a cluster's disks, per GB (10^9 bytes) of a disk's size and day. */
export const DiskPrice = z.object({ credits_per_day_per_gb: z.string() }).meta({ id: 'DiskPrice' });
export const DiskPriceCredits = z.object({
  credits_per_day_per_gb: nonNegative(ADMIN_TEXTS.creditsInvalid, CREDITS).transform(String),
});

export const AdminOrg = z
  .object({
    name: z.string(),
    balance: z.object({ credits: z.string().nullable(), spent_credits: z.string() }),
    user_default_credits: z.string().nullable(),
    notification_intervals: z.object({}).passthrough().nullable(),
    users_count: z.number().int(),
  })
  .meta({ id: 'AdminOrg' });
export type AdminOrgWire = z.infer<typeof AdminOrg>;

/** `PATCH orgs/{name}/balance`: set the credits, or add to them. */
export const OrgBalancePatch = z
  .object({
    credits: Credits.optional(),
    additional_credits: z
      .string()
      .trim()
      .regex(/^-?\d+(\.\d+)?$/, 'Additional credits must be a number')
      .refine(fitsDecimal, BOUND_TEXTS.decimalMax)
      .optional(),
  })
  .refine((v) => (v.credits === undefined) !== (v.additional_credits === undefined), {
    message: 'Give either credits or additional_credits',
  });

export const SystemUser = z
  .object({
    name: z.string(),
    email: z.string(),
    first_name: z.string().nullable(),
    last_name: z.string().nullable(),
    created_at: z.string(),
    role: z.enum(['admin', 'user']),
  })
  .meta({ id: 'SystemUser' });
export type SystemUserWire = z.infer<typeof SystemUser>;
/** A username as sign-up takes it (names.ts), with its own words rather than zod's. */
const Username = z
  .string()
  .trim()
  .min(1, ADMIN_TEXTS.usernameRequired)
  .refine(
    (v) => USERNAME.test(v) && v.length >= USERNAME_MIN && v.length <= USERNAME_MAX,
    USERNAME_MESSAGE,
  );
export const SystemUserCreate = z.object({
  name: Username,
  email: z.string().trim().email(ADMIN_TEXTS.emailInvalid),
  first_name: z.string().nullable().optional(),
  last_name: z.string().nullable().optional(),
  role: z.enum(['admin', 'user']).default('user'),
});
export const SystemUserUpdate = z.object({ role: z.enum(['admin', 'user']) });
