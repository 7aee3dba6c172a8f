import { z } from 'zod';
import { MemberRole } from './roles.js';

/**
 * Project tokens (service accounts): a named bearer token with a project role and an expiry, for
 * CI and scripts. Our own design; the token itself is shown once, when it is created.
 */
export const TOKEN_NAME = /^[a-z0-9](-?[a-z0-9])*$/;
export const TOKEN_NAME_MIN = 3;
export const TOKEN_NAME_MAX = 30;
/** Choices of the console's expiry menu, in days; the API takes any time up to the maximum. */
export const TOKEN_EXPIRY_DAYS = [7, 30, 90, 365] as const;
export const TOKEN_MAX_DAYS = 365;

export const TOKEN_TEXTS = {
  name: `Use ${TOKEN_NAME_MIN} to ${TOKEN_NAME_MAX} lowercase letters, digits and single hyphens`,
  nameTaken: 'A token with this name already exists in the project',
  expiryPast: 'The expiry must be in the future',
  expiryTooFar: `A token expires within ${TOKEN_MAX_DAYS} days`,
  notFound: 'Token not found',
  created: (name: string) => `Token ${name} is created`,
  revoked: (name: string) => `Token ${name} is revoked`,
  shownOnce: 'Copy the token now: it is shown only once.',
  none: 'No tokens in this project',
  listFailed: 'Could not fetch the tokens',
} as const;

export const TokenStatus = z.enum(['active', 'expired', 'revoked']);
export type TokenStatus = z.infer<typeof TokenStatus>;

export const ProjectToken = z
  .object({
    id: z.string(),
    name: z.string(),
    role: MemberRole,
    /** The service account's user name: jobs it submits are owned by it. */
    username: z.string(),
    created_by: z.string().nullable(),
    created_at: z.string(),
    expires_at: z.string(),
    revoked_at: z.string().nullable(),
    status: TokenStatus,
  })
  .meta({ id: 'ProjectToken' });
export type ProjectTokenWire = z.infer<typeof ProjectToken>;

export const ProjectTokenCreated = ProjectToken.extend({ token: z.string() }).meta({
  id: 'ProjectTokenCreated',
});

export const ProjectTokenCreate = z.object({
  name: z
    .string()
    .min(TOKEN_NAME_MIN, TOKEN_TEXTS.name)
    .max(TOKEN_NAME_MAX, TOKEN_TEXTS.name)
    .regex(TOKEN_NAME, TOKEN_TEXTS.name),
  role: MemberRole,
  expires_at: z.iso.datetime({ offset: true }),
});
export type ProjectTokenCreate = z.infer<typeof ProjectTokenCreate>;
