import { z } from 'zod';
import { Action } from './roles.js';

/** Shares: a user's grants of an action on a URI, as the Apolo CLI lists them. */
export const Permission = z
  .object({ uri: z.string().min(1), action: Action })
  .meta({ id: 'Permission' });
export type PermissionWire = z.infer<typeof Permission>;
export const PermissionList = z.array(Permission);
export const PermissionQuery = z.object({ uri: z.string().optional() });
export const SharedPermission = z.object({ user: z.string(), uri: z.string(), action: Action });

/** Most questions one permission check may ask: a page asks about its own actions only. */
export const PERMISSION_CHECK_MAX = 200;
/** `POST /api/v1/permissions/check`: may the caller do `action` on `uri`? Asked in one batch. */
export const PermissionCheck = z
  .array(Permission)
  .min(1)
  .max(PERMISSION_CHECK_MAX)
  .meta({ id: 'PermissionCheck' });
export const PermissionVerdict = z
  .object({
    uri: z.string(),
    action: Action,
    allowed: z.boolean(),
    /** Why not, in words the console shows as the disabled action's tooltip; null when allowed. */
    reason: z.string().nullable(),
  })
  .meta({ id: 'PermissionVerdict' });
export type PermissionVerdictWire = z.infer<typeof PermissionVerdict>;
export const PermissionVerdicts = z.array(PermissionVerdict);
