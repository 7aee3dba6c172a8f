import { z } from 'zod';

/**
 * What this installation cannot do, as the server found its host at start (Administration >
 * Host): each feature with the reason and the command that fixes it.
 */
export const HostLimit = z.object({
  feature: z.string(),
  reason: z.string(),
  fix: z.string(),
});
export type HostLimit = z.infer<typeof HostLimit>;

export const HostLimits = z.object({
  /** Whether the server runs as root (a root `npm start` installs what is missing). */
  root: z.boolean(),
  limits: z.array(HostLimit),
});
export type HostLimits = z.infer<typeof HostLimits>;
