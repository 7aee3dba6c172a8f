import { z } from 'zod';
import { MemberRole } from './roles.js';
import { ClusterUser } from './people.js';

/**
 * What `apolo admin` reads that the console does not (apolo-wire §10): projects as the admin API
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
  })
  .meta({ id: 'ConfigCluster' });

/** A direct member of a cluster, not seen through an organization. */
export const ClusterMember = ClusterUser.extend({ org_name: z.string().nullable() }).meta({
  id: 'ClusterMember',
});
