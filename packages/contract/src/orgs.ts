import { z } from 'zod';
import { NAME_MAX, PLATFORM_NAME, PLATFORM_NAME_MESSAGE } from './names.js';
import { OrgRole } from './roles.js';
import { Balance } from './users.js';

export const OrgName = z
  .string()
  .min(1, 'Organization name is required')
  .max(NAME_MAX, PLATFORM_NAME_MESSAGE)
  .regex(PLATFORM_NAME, 'Organization name is invalid');

export const Org = z
  .object({ name: z.string(), role: OrgRole, balance: Balance, projects_count: z.number().int() })
  .meta({ id: 'Organization' });
export type OrgWire = z.infer<typeof Org>;

export const OrgCreate = z.object({ name: OrgName });
export const Exists = z.object({ exists: z.boolean() });

/**
 * `apolo admin add-org`: the admin API's `POST orgs` (docs/apolo-clients.md). Default credits for
 * new members are not kept here, so a value is refused rather than dropped.
 */
export const ORG_DEFAULT_CREDITS_UNSUPPORTED =
  "Default credits for new members are not kept on this installation: set a member's credits with set-user-credits";
export const AdminOrgCreate = z.object({
  name: OrgName,
  user_default_credits: z.null({ error: ORG_DEFAULT_CREDITS_UNSUPPORTED }).optional(),
});
/** `?skip_auto_add_to_clusters=true` leaves the new organization off the local cluster. */
export const AdminOrgCreateQuery = z.object({
  skip_auto_add_to_clusters: z
    .enum(['true', 'false'], { error: 'skip_auto_add_to_clusters must be true or false' })
    .default('false')
    .transform((v) => v === 'true'),
});
