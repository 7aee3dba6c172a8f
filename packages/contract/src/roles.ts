import { z } from 'zod';

/** Roles and the permission actions they grant (docs/permissions.md). */
export const OrgRole = z.enum(['user', 'manager', 'admin']);
export type OrgRole = z.infer<typeof OrgRole>;
export const ClusterRole = z.enum(['user', 'manager', 'admin']);
export type ClusterRole = z.infer<typeof ClusterRole>;
export const ProjectRole = z.enum(['reader', 'writer', 'manager', 'admin']);
export type ProjectRole = z.infer<typeof ProjectRole>;
/** The subset offered when choosing a member's role (and a project's default role). */
export const MemberRole = z.enum(['reader', 'writer', 'manager']);
export type MemberRole = z.infer<typeof MemberRole>;
export const SystemRole = z.enum(['admin']);
export type SystemRole = z.infer<typeof SystemRole>;

export const Action = z.enum(['read', 'write', 'manage']);
export type Action = z.infer<typeof Action>;
export const ACTION_RANK: Record<Action, number> = { read: 1, write: 2, manage: 3 };
export const atLeast = (have: Action, need: Action) => ACTION_RANK[have] >= ACTION_RANK[need];

/** The default role when none is found. */
export const DEFAULT_ROLE = 'user';

const MANAGER_ROLES = new Set(['manager', 'admin']);
/** Organization, cluster and project managers and admins all count as managers. */
export const isManagerRole = (role: string | null | undefined) => !!role && MANAGER_ROLES.has(role);

/** Action granted by a role at its own level. */
export const actionOfRole = (role: string): Action => {
  switch (role) {
    case 'admin':
    case 'manager':
      return 'manage';
    case 'writer':
      return 'write';
    default:
      return 'read';
  }
};
