import { z } from 'zod';
import { BOUND_TEXTS, fitsDecimal } from './bounds.js';
import { ClusterRole, MemberRole, OrgRole, ProjectRole } from './roles.js';

/**
 * People of organizations, clusters and projects, and invites (the admin
 * API's `orgs/{o}/users`, `clusters/{c}/orgs/{o}/users`,
 * `…/projects/{p}/users`).
 */

/** Texts that the server and the console share, so that both say the same words. */
export const PEOPLE_TEXTS = {
  userUpdated: (name: string) => `User ${name} is updated`,
  userAddedToCluster: (name: string, cluster: string) => `User ${name} added to ${cluster} cluster`,
  invited: (email: string, org: string) => `User ${email} invited to ${org} organization`,
  inviteRemoved: (email: string) => `The invitation for ${email} has been removed`,
  addedToOrg: (org: string) => `You have been added to organization ${org}`,
  noOrgUsers: (org: string) => `No users found in ${org} organization`,
  noPlatformUsers: 'No users found on platform (You can invite user by sending e-mail)',
  typeMore: 'Type at least 2 characters',
  noPendingInvites: 'No pending invites',
  lookupFailed: 'Could not fetch user lookup list',
  userListFailed: 'Could not fetch user list',
  invalidEmail: 'Enter a valid e-mail address',
  creditsInvalid: 'Credits must be a non-negative number',
} as const;

/** User search: at least this many characters, matched by prefix of name or e-mail. */
export const SEARCH_MIN = 2;
/** At most this many matches are shown by a search. */
export const SEARCH_MAX = 25;

/** Credits as a decimal string; null (or empty in a form) means unlimited. */
export const Credits = z
  .string()
  .trim()
  .regex(/^\d+(\.\d+)?$/, PEOPLE_TEXTS.creditsInvalid)
  .refine(fitsDecimal, BOUND_TEXTS.decimalMax)
  .nullable();
/** The console's credits field: empty means unlimited. */
export const creditsOfField = (raw: string): string | null =>
  raw.trim() === '' ? null : raw.trim();

export const MemberBalance = z.object({
  credits: z.string().nullable(),
  spent_credits: z.string(),
});

export const UserInfo = z.object({
  email: z.string(),
  first_name: z.string().nullable(),
  last_name: z.string().nullable(),
  created_at: z.string(),
});

export const OrgUser = z
  .object({
    user_name: z.string(),
    org_name: z.string(),
    role: OrgRole,
    balance: MemberBalance,
    user_info: UserInfo.optional(),
  })
  .meta({ id: 'OrgUser' });
export type OrgUserWire = z.infer<typeof OrgUser>;

export const OrgUserAdd = z.object({
  user_name: z.string().min(1),
  role: OrgRole,
  balance: z.object({ credits: Credits.default(null) }).optional(),
});
export const OrgUserUpdate = OrgUserAdd.partial({ user_name: true });

export const WithUserInfo = z.object({
  with_user_info: z
    .enum(['true', 'false'])
    .default('false')
    .transform((v) => v === 'true'),
});

export const ClusterUser = z
  .object({
    user_name: z.string(),
    cluster_name: z.string(),
    org_name: z.string(),
    role: ClusterRole,
    user_info: UserInfo.optional(),
  })
  .meta({ id: 'ClusterUser' });
export type ClusterUserWire = z.infer<typeof ClusterUser>;
export const ClusterUserAdd = z.object({ user_name: z.string().min(1), role: ClusterRole });
export const ClusterUserUpdate = z.object({ role: ClusterRole });

export const ProjectUser = z
  .object({
    user_name: z.string(),
    project_name: z.string(),
    cluster_name: z.string(),
    org_name: z.string(),
    role: ProjectRole,
    user_info: UserInfo.optional(),
  })
  .meta({ id: 'ProjectUser' });
export type ProjectUserWire = z.infer<typeof ProjectUser>;
export const ProjectUserAdd = z.object({ user_name: z.string().min(1), role: MemberRole });
export const ProjectUserUpdate = z.object({ role: MemberRole });

/** Platform user lookup (invite dialog): name and e-mail only. */
export const LookupUser = z.object({ name: z.string(), email: z.string() });
export const LookupQuery = z.object({
  query: z.string().trim().min(SEARCH_MIN, PEOPLE_TEXTS.typeMore),
});

/** Prefix of name or e-mail, case-insensitive. */
export const matchesPrefix = (q: string, ...fields: (string | null | undefined)[]) => {
  const needle = q.trim().toLowerCase();
  return fields.some((f) => !!f && f.toLowerCase().startsWith(needle));
};

export const InviteStatus = z.enum(['pending', 'accepted', 'expired', 'declined']);
export type InviteStatus = z.infer<typeof InviteStatus>;

export const Invite = z
  .object({
    id: z.string(),
    invite_id: z.string(),
    organization_name: z.string(),
    email: z.string(),
    role: OrgRole,
    status: InviteStatus,
    expired_at: z.string(),
    created_at: z.string(),
  })
  .meta({ id: 'Invite' });
export type InviteWire = z.infer<typeof Invite>;

export const InviteEmail = z.string().trim().email(PEOPLE_TEXTS.invalidEmail);
export const InviteCreate = z.object({
  email: InviteEmail,
  role_name: OrgRole,
  org_name: z.string().min(1),
  /** The console's origin, for the link in the mail (a white-label hostname). */
  origin: z.string().optional(),
});
export const InviteResend = z.object({
  org_name: z
    .string({ error: 'Resend invite needs an organization name' })
    .min(1, 'Resend invite needs an organization name'),
  origin: z.string().optional(),
});
