import { z } from 'zod';
import { MemberRole } from './roles.js';
import { TOKEN_NAME, TOKEN_NAME_MAX, TOKEN_NAME_MIN, TOKEN_TEXTS } from './tokens.js';

/**
 * Apolo's service accounts, served by the project tokens: an account is a
 * project token its owner made in their default project, so one store and one rule serve both.
 */
export const SERVICE_ACCOUNT_TEXTS = {
  notFound: 'Service account not found',
  nameTaken: 'You already have a service account with this name',
  projectNotFound: 'Project not found',
  orgAmbiguous:
    'Several organizations have a project of this name on the cluster: name one in default_org',
} as const;

export const ServiceAccount = z
  .object({
    id: z.string(),
    /** The user who made it. */
    owner: z.string().nullable(),
    name: z.string(),
    default_cluster: z.string(),
    default_org: z.string(),
    default_project: z.string(),
    role: MemberRole,
    created_at: z.string(),
  })
  .meta({ id: 'ServiceAccount' });
export type ServiceAccountWire = z.infer<typeof ServiceAccount>;

export const ServiceAccountCreated = ServiceAccount.extend({ token: z.string() }).meta({
  id: 'ServiceAccountCreated',
});

export const ServiceAccountCreate = z.object({
  /** `null` or absent: the server picks one. */
  name: z
    .string()
    .min(TOKEN_NAME_MIN, TOKEN_TEXTS.name)
    .max(TOKEN_NAME_MAX, TOKEN_TEXTS.name)
    .regex(TOKEN_NAME, TOKEN_TEXTS.name)
    .nullish(),
  default_cluster: z.string().min(1, 'Name the cluster in default_cluster'),
  default_project: z.string().min(1, 'Name the project in default_project'),
  default_org: z.string().min(1).nullish(),
});
export type ServiceAccountCreate = z.infer<typeof ServiceAccountCreate>;
