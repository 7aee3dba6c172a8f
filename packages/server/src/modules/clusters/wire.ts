import type { ClusterWire, ConfigClusterWire, GpuVendor } from '@orrery/contract';
import type { Config } from '../../config.js';
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
 * A cluster as `GET /api/v1/config` describes it. Every service address is served
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

/**
 * A cluster as the cluster-config API lists it (`GET /api/v1/clusters`): the official client's
 * reader (`apolo admin get-clusters`) requires every service section, so each names the address
 * this process serves it at, as `clusterWire` does.
 */
export function configClusterWire(
  c: LoadedCluster,
  config: Pick<Config, 'publicUrl' | 'ingressDomain'>,
): ConfigClusterWire {
  const base = config.publicUrl;
  const api = `${base}/api/v1`;
  const wire = clusterWire(c, base, null);
  const diskSizes = c.pools.map((p) => p.diskSize);
  return {
    name: c.cluster.name,
    status: 'deployed',
    location: c.cluster.location,
    timezone: c.cluster.timezone,
    created_at: c.cluster.createdAt.toISOString(),
    orchestrator: {
      // Jobs are served at their own host under the ingress domain (docs/jobs.md).
      job_hostname_template: `{job_id}.${config.ingressDomain}`,
      job_fallback_hostname: config.ingressDomain,
      // A job waits for capacity until its own schedule timeout, if it names one: no default.
      job_schedule_timeout_s: 0,
      job_schedule_scale_up_timeout_s: 0,
      is_http_ingress_secure: base.startsWith('https:'),
      resource_pool_types: wire.resource_pool_types,
      resource_presets: wire.resource_presets,
      allow_privileged_mode: false,
      allow_job_priority: true,
    },
    storage: {
      url: wire.storage_url,
      volumes: c.cluster.storageVolumes.map((v) => ({
        name: v.name,
        path: null,
        credits_per_hour_per_gb: v.creditsPerHourPerGb,
      })),
    },
    registry: { url: wire.registry_url },
    monitoring: { url: wire.monitoring_url },
    secrets: { url: wire.secrets_url },
    metrics: { url: `${api}/metrics` },
    // A disk is at most the disk of the largest node (modules/disks/service.ts).
    disks: {
      url: wire.disks_url,
      storage_limit_per_user: diskSizes.length ? Math.max(...diskSizes) : 0,
    },
    buckets: { url: wire.buckets_url, disable_creation: false },
    energy: { co2_grams_eq_per_kwh: 0, schedules: [] },
    apps: wire.apps,
  };
}
