import { z } from 'zod';
import { OrgRole, ProjectRole, ClusterRole, SystemRole } from './roles.js';

export const Balance = z.object({
  /** Decimal string; null means unlimited. */
  credits: z.string().nullable(),
});

export const UserOrg = z.object({
  name: z.string(),
  role: OrgRole,
  balance: Balance,
  /** This user's projects in the organization. */
  projects_count: z.number().int(),
});
export const UserCluster = z.object({
  name: z.string(),
  role: ClusterRole,
  orgs: z.array(z.string()),
});
export const UserProject = z.object({
  name: z.string(),
  org_name: z.string(),
  cluster_name: z.string(),
  role: ProjectRole,
});

export const User = z
  .object({
    username: z.string(),
    name: z.string(),
    email: z.string(),
    email_verified: z.boolean(),
    terms_accepted: z.boolean(),
    picture: z.string().nullable(),
    system_role: SystemRole.nullable().optional(),
    orgs: z.array(UserOrg).optional(),
    clusters: z.array(UserCluster).optional(),
    projects: z.array(UserProject).optional(),
  })
  .meta({ id: 'User' });
export type UserWire = z.infer<typeof User>;

export const USER_INCLUDES = ['clusters', 'system_role', 'orgs', 'projects'] as const;
export const UserQuery = z.object({
  include: z
    .union([z.enum(USER_INCLUDES), z.array(z.enum(USER_INCLUDES))])
    .optional()
    .transform((v) => (v === undefined ? [] : Array.isArray(v) ? v : [v])),
});

export const ProfileUpdate = z.object({
  terms_accepted: z.boolean().optional(),
  name: z.string().trim().min(1).max(200).optional(),
  email: z.string().email().optional(),
});
