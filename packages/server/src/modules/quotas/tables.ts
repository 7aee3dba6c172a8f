import { foreignKey, jsonb, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import type { ResourceAmounts } from '@orrery/contract';
import { clusterOrgs, projects } from '../../db/schema.js';

/**
 * Resource quotas (migration 0019; docs/quotas.md). Each is a nominal share and a borrowing
 * limit, as `{cpu, memory, nvidia_gpu, amd_gpu, intel_gpu}` amounts where an absent resource is
 * unlimited. The organization's jobs quota stays in `cluster_orgs.quota_total_running_jobs`.
 * Unlinking an organization from a cluster, or deleting a project, takes its quota with it.
 */
const limits = () => ({
  nominal: jsonb('nominal').$type<ResourceAmounts>().notNull().default({}),
  borrowingLimit: jsonb('borrowing_limit').$type<ResourceAmounts>().notNull().default({}),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/** An organization's quota on a cluster: the pool its projects share. */
export const orgQuotas = pgTable(
  'org_quotas',
  {
    clusterName: text('cluster_name').notNull(),
    orgName: text('org_name').notNull(),
    ...limits(),
  },
  (t) => [
    primaryKey({ columns: [t.clusterName, t.orgName] }),
    foreignKey({
      name: 'org_quotas_cluster_org_fk',
      columns: [t.clusterName, t.orgName],
      foreignColumns: [clusterOrgs.clusterName, clusterOrgs.orgName],
    }).onDelete('cascade'),
  ],
);

/** A project's quota, a share of its organization's on the project's cluster. */
export const projectQuotas = pgTable('project_quotas', {
  projectId: uuid('project_id')
    .primaryKey()
    .references(() => projects.id, { onDelete: 'cascade' }),
  ...limits(),
});
