import type { ProjectView } from './store.js';

/** A project as the API answers it, with the caller's role in it. */
export const projectWire = (p: ProjectView) => ({
  name: p.name,
  org_name: p.orgName,
  cluster_name: p.clusterName,
  role: p.role,
  is_default: p.isDefault,
  default_role: p.defaultRole,
});
