/** Query keys of every area, so invalidation never misses a spelling. */
export const queryKeys = {
  anonymousConfig: ['config', 'anonymous'] as const,
  sessionConfig: ['config', 'session'] as const,
  user: (username: string) => ['users', username] as const,
  invitesPending: ['invites', 'pending-count'] as const,
};
