import { z } from 'zod';
import { MemberRole } from './roles.js';
import { ClusterUser } from './people.js';

/**
 * What `apolo admin` reads that the console does not: projects as the admin API
 * lists them, clusters as the cluster-config API lists them, and members of a cluster.
 */
export const AdminProject = z
  .object({
    name: z.string(),
    cluster_name: z.string(),
    org_name: z.string(),
    is_default: z.boolean(),
    default_role: MemberRole,
    has_virtual_kube: z.boolean(),
  })
  .meta({ id: 'AdminProject' });
export type AdminProjectWire = z.infer<typeof AdminProject>;

export const ConfigCluster = z
  .object({
    name: z.string(),
    status: z.literal('deployed'),
    location: z.string().nullable(),
    timezone: z.string(),
    created_at: z.string(),
    // The services of the cluster, each read by the official client's cluster reader
    // (neuro-config-client), which requires every one of them.
    orchestrator: z.object({
      job_hostname_template: z.string(),
      job_fallback_hostname: z.string(),
      job_schedule_timeout_s: z.number(),
      job_schedule_scale_up_timeout_s: z.number(),
      is_http_ingress_secure: z.boolean(),
      resource_pool_types: z.array(z.record(z.string(), z.unknown())),
      resource_presets: z.array(z.record(z.string(), z.unknown())),
      allow_privileged_mode: z.boolean(),
      allow_job_priority: z.boolean(),
    }),
    storage: z.object({
      url: z.string(),
      volumes: z.array(
        z.object({
          name: z.string(),
          path: z.string().nullable(),
          credits_per_hour_per_gb: z.string(),
        }),
      ),
    }),
    registry: z.object({ url: z.string() }),
    monitoring: z.object({ url: z.string() }),
    secrets: z.object({ url: z.string() }),
    metrics: z.object({ url: z.string() }),
    disks: z.object({ url: z.string(), storage_limit_per_user: z.number() }),
    buckets: z.object({ url: z.string(), disable_creation: z.boolean() }),
    energy: z.object({ co2_grams_eq_per_kwh: z.number(), schedules: z.array(z.unknown()) }),
    apps: z.object({
      apps_hostname_templates: z.array(z.string()),
      app_proxy_url: z.string(),
      launchpad_use_subdomain: z.boolean(),
    }),
  })
  .meta({ id: 'ConfigCluster' });
export type ConfigClusterWire = z.infer<typeof ConfigCluster>;

/** A direct member of a cluster, not seen through an organization. */
export const ClusterMember = ClusterUser.extend({ org_name: z.string().nullable() }).meta({
  id: 'ClusterMember',
});
