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
