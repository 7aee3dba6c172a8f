import { diskUri, type DiskStatus, type DiskWire } from '@orrery/contract';
import type { DiskView } from './store.js';

/** A disk as the disk API answers it. */
export const diskWire = (d: DiskView): DiskWire => ({
  id: d.id,
  storage: d.storage,
  used_bytes: d.usedBytes ?? null,
  status: d.status as DiskStatus,
  // A deleted account leaves its disks without an owner; the wire wants a string.
  owner: d.owner ?? '',
  name: d.name,
  org_name: d.orgName,
  project_name: d.projectName,
  cluster_name: d.clusterName,
  uri: diskUri(d.clusterName, d.orgName, d.projectName, d.id),
  created_at: d.createdAt.toISOString(),
  last_usage: d.lastUsage?.toISOString() ?? null,
  life_span: d.lifeSpan ?? null,
});
