import { z } from 'zod';
import { formatUri } from './uris.js';
import { DEFAULT_CLUSTER } from './clusters.js';
import { BOUND_TEXTS, INT4_MAX } from './bounds.js';

/**
 * Disks (base `/api/v1/disk`). The wire follows the public
 * disk API so that the `apolo disk` commands work; `cluster_name` is ours and optional, because
 * the CLI never sends it.
 */
export const DISK_NAME = /^[a-z](-?[a-z0-9])*$/;
export const DISK_NAME_MIN = 3;
export const DISK_NAME_MAX = 40;
export const DISK_NAME_INVALID = 'Invalid name';
export const DISK_NAME_LENGTH = `Disk name must be ${DISK_NAME_MIN} to ${DISK_NAME_MAX} characters`;
export const STORAGE_NOT_NUMBER = 'Storage must be a number';
export const STORAGE_NOT_POSITIVE = 'Storage must be positive';
export const STORAGE_NOT_WHOLE = 'Storage must be a whole number of bytes';
export const diskTaken = (name: string) => `Disk with name ${name} already exists`;

export const DiskStatus = z.enum(['Pending', 'Ready', 'Broken']);
export type DiskStatus = z.infer<typeof DiskStatus>;

export const DiskName = z
  .string()
  .min(DISK_NAME_MIN, DISK_NAME_LENGTH)
  .max(DISK_NAME_MAX, DISK_NAME_LENGTH)
  .regex(DISK_NAME, DISK_NAME_INVALID);

export const Disk = z
  .object({
    id: z.string(),
    storage: z.number().int(),
    used_bytes: z.number().int().nullable(),
    status: DiskStatus,
    owner: z.string(),
    name: z.string().nullable(),
    org_name: z.string(),
    project_name: z.string(),
    cluster_name: z.string(),
    uri: z.string(),
    created_at: z.string(),
    last_usage: z.string().nullable(),
    life_span: z.number().nullable(),
  })
  .meta({ id: 'Disk' });
export type DiskWire = z.infer<typeof Disk>;
export const DiskList = z.array(Disk);

const Scope = {
  org_name: z.string().min(1),
  project_name: z.string().min(1),
  cluster_name: z.string().min(1).default(DEFAULT_CLUSTER),
};

export const DiskCreate = z.object({
  storage: z
    .number({ error: STORAGE_NOT_NUMBER })
    .int(STORAGE_NOT_WHOLE)
    .positive(STORAGE_NOT_POSITIVE),
  /** Seconds the disk may stay unused before it is deleted; null keeps it. */
  life_span: z
    .number()
    .positive('Lifespan must be positive')
    // Added to a timestamp as an interval by the reaper: keep it where an interval is exact.
    .max(INT4_MAX, BOUND_TEXTS.intMax)
    .nullable()
    .default(null),
  name: DiskName.nullable().default(null),
  ...Scope,
});
export const DiskListQuery = z.object({ ...Scope, owner: z.string().min(1).optional() });
export const DiskScopeQuery = z.object(Scope);

export const diskUri = (cluster: string, org: string, project: string, id?: string) =>
  id ? formatUri('disk', cluster, org, project, id) : formatUri('disk', cluster, org, project);
