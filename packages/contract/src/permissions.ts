import { z } from 'zod';
import { Action } from './roles.js';

/** Shares of apolo-wire §9. */
export const Permission = z
  .object({ uri: z.string().min(1), action: Action })
  .meta({ id: 'Permission' });
export type PermissionWire = z.infer<typeof Permission>;
export const PermissionList = z.array(Permission);
export const PermissionQuery = z.object({ uri: z.string().optional() });
export const SharedPermission = z.object({ user: z.string(), uri: z.string(), action: Action });
