import { z } from 'zod';

/**
 * The cluster every installation creates at its first start, and the one a request means when it
 * names none (Apolo's clients leave `cluster_name` out for the default cluster).
 */
export const DEFAULT_CLUSTER = 'default';

/** Cluster objects as the Apolo SDK reads them from `GET /api/v1/config`. */
export const GpuVendor = z.enum(['nvidia', 'amd', 'intel']);
export type GpuVendor = z.infer<typeof GpuVendor>;
export const GPU_VENDORS = GpuVendor.options;

export const Gpu = z.object({
  count: z.number().int().min(0),
  model: z.string().optional(),
  memory: z.number().optional(),
});

export const NodePool = z
  .object({
    name: z.string(),
    min_size: z.number().int(),
    max_size: z.number().int(),
    idle_size: z.number().int(),
    cpu: z.number(),
    memory: z.number(),
    disk_size: z.number(),
    available_cpu: z.number(),
    available_memory: z.number(),
    available_disk_size: z.number(),
    is_preemptible: z.boolean(),
    cpu_min_watts: z.number(),
    cpu_max_watts: z.number(),
    nvidia_gpu: Gpu.optional(),
    amd_gpu: Gpu.optional(),
    intel_gpu: Gpu.optional(),
  })
  .meta({ id: 'NodePool' });

export const Preset = z
  .object({
    name: z.string(),
    credits_per_hour: z.string(),
    cpu: z.number(),
    memory: z.number(),
    memory_mb: z.number(),
    scheduler_enabled: z.boolean(),
    preemptible_node: z.boolean(),
    is_preemptible: z.boolean(),
    is_preemptible_node_required: z.boolean(),
    nvidia_gpu: Gpu.optional(),
    amd_gpu: Gpu.optional(),
    intel_gpu: Gpu.optional(),
    resource_pool_names: z.array(z.string()),
    available_resource_pool_names: z.array(z.string()),
  })
  .meta({ id: 'Preset' });

export const StorageVolume = z.object({ name: z.string(), credits_per_hour_per_gb: z.string() });

export const Cluster = z
  .object({
    name: z.string(),
    location: z.string().nullable(),
    logo_url: z.string().nullable(),
    orgs: z.array(z.string()),
    registry_url: z.string(),
    storage_url: z.string(),
    users_url: z.string(),
    monitoring_url: z.string(),
    secrets_url: z.string(),
    disks_url: z.string(),
    buckets_url: z.string(),
    resource_pool_types: z.array(NodePool),
    resource_presets: z.array(Preset),
    storage_volumes: z.array(StorageVolume),
    /** Ours: what disks cost, for the disks page (0: free). */
    disk_price: z.object({ credits_per_day_per_gb: z.string() }).optional(),
    timezone: z.string(),
    energy_schedules: z.array(z.object({ name: z.string(), periods: z.array(z.unknown()) })),
    apps: z.object({
      apps_hostname_templates: z.array(z.string()),
      app_proxy_url: z.string(),
      launchpad_use_subdomain: z.boolean(),
    }),
  })
  .meta({ id: 'Cluster' });
export type ClusterWire = z.infer<typeof Cluster>;
