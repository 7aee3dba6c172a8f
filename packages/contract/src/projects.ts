import { z } from 'zod';
import { NAME_MAX, PLATFORM_NAME, PLATFORM_NAME_MESSAGE } from './names.js';
import { MemberRole, ProjectRole } from './roles.js';

/**
 * Where a project lives: the cluster, organization and project that every project-scoped call
 * names (jobs, files, disks, buckets, images, secrets, apps, flows, people, tokens).
 */
export interface ProjectPlace {
  clusterName: string;
  orgName: string;
  projectName: string;
}

/**
 * Where a project's resource lives, as the server's stores and the assistant key it: one shape
 * for every area (jobs, disks, buckets, secrets, apps, flows).
 */
export interface ResourcePlace {
  cluster: string;
  org: string;
  project: string;
}

/** One string per place, for cache keys and React keys. */
export const placeKey = (p: ProjectPlace) => `${p.clusterName}/${p.orgName}/${p.projectName}`;

export const ProjectName = z
  .string()
  .min(1, 'Project name is required')
  .max(NAME_MAX, PLATFORM_NAME_MESSAGE)
  .regex(PLATFORM_NAME, 'Project name is invalid');

export const Project = z
  .object({
    name: z.string(),
    org_name: z.string(),
    cluster_name: z.string(),
    role: ProjectRole.nullable(),
    is_default: z.boolean(),
    default_role: MemberRole,
  })
  .meta({ id: 'Project' });
export type ProjectWire = z.infer<typeof Project>;

export const ProjectCreate = z.object({
  name: ProjectName,
  org_name: z.string().min(1),
  cluster_name: z.string().min(1),
  is_default: z.boolean().default(false),
  default_role: MemberRole.default('writer'),
});

export const ProjectExistsQuery = z.object({
  cluster_name: z.string().min(1),
  org_name: z.string().min(1),
  name: z.string().min(1),
});
