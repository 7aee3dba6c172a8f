import type { UserOrgView } from './store.js';

/** An organization as the caller sees it: their role in it, its credits, its projects. */
export const orgWire = (o: UserOrgView) => ({
  name: o.name,
  role: o.role,
  balance: { credits: o.credits },
  projects_count: o.projectsCount,
});
