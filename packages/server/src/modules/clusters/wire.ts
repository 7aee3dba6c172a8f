import type { ClusterWire, GpuVendor } from '@orrery/contract';
import type { LoadedCluster, NodePoolRow, PresetRow } from './store.js';

type Gpus = Partial<Record<GpuVendor, { count: number; model?: string; memory?: number }>>;

const gpuFields = (gpus: unknown) => {
  const g = (gpus ?? {}) as Gpus;
  return {
    ...(g.nvidia ? { nvidia_gpu: g.nvidia } : {}),
    ...(g.amd ? { amd_gpu: g.amd } : {}),
    ...(g.intel ? { intel_gpu: g.intel } : {}),
  };
};

export const poolWire = (p: NodePoolRow) => ({
  name: p.name,
  min_size: p.minSize,
  max_size: p.maxSize,
  idle_size: p.idleSize,
  cpu: p.cpu,
  memory: p.memory,
  disk_size: p.diskSize,
  available_cpu: p.cpu,
  available_memory: p.memory,
  available_disk_size: p.diskSize,
  is_preemptible: p.isPreemptible,
  cpu_min_watts: p.cpuMinWatts,
  cpu_max_watts: p.cpuMaxWatts,
  ...gpuFields(p.gpus),
});

export const presetWire = (p: PresetRow) => ({
  name: p.name,
  credits_per_hour: String(Number(p.creditsPerHour)),
  cpu: p.cpu,
  memory: p.memory,
  memory_mb: Math.floor(p.memory / 2 ** 20),
  scheduler_enabled: p.schedulerEnabled,
  preemptible_node: p.isPreemptible,
  is_preemptible: p.isPreemptible,
  is_preemptible_node_required: p.isPreemptible,
  resource_pool_names: p.resourcePoolNames,
  available_resource_pool_names: p.resourcePoolNames,
  ...gpuFields(p.gpus),
});

/**
 * A cluster as `GET /api/v1/config` describes it (apolo-wire §1). Every service address is served
 * by this process by default; `orgs` lists only the caller's organizations linked to it.
 */
export function clusterWire(
  c: LoadedCluster,
  base: string,
  callerOrgs: Set<string> | null,
): ClusterWire {
  const api = `${base}/api/v1`;
  return {
    name: c.cluster.name,
    location: c.cluster.location,
    logo_url: c.cluster.logoUrl,
    orgs: c.orgs.filter((o) => !callerOrgs || callerOrgs.has(o)).sort(),
    registry_url: `${base}/`,
    storage_url: `${api}/storage`,
    users_url: base,
    monitoring_url: `${api}/jobs`,
    secrets_url: `${api}/secrets`,
    disks_url: `${api}/disk`,
    buckets_url: `${api}/buckets`,
    resource_pool_types: c.pools.map(poolWire),
    resource_presets: c.presets.map(presetWire),
    storage_volumes: c.cluster.storageVolumes.map((v) => ({
      name: v.name,
      credits_per_hour_per_gb: v.creditsPerHourPerGb,
    })),
    disk_price: { credits_per_day_per_gb: c.cluster.diskCreditsPerDayPerGb },
    timezone: c.cluster.timezone,
    energy_schedules: [{ name: 'default', periods: [] }],
    apps: {
      apps_hostname_templates: [],
      app_proxy_url: `${base}/apps-proxy`,
      launchpad_use_subdomain: false,
    },
  };
}
