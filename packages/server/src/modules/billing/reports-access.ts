import type { FastifyRequest } from 'fastify';
import { clusterUri, orgUri, projectUri } from '@orrery/contract';
import { allows } from '../../auth/permissions.js';
import { authorize } from '../../http/access.js';

/** The scope of a usage or top query (validated: an organization or a cluster is named). */
interface Scope {
  org_name?: string;
  cluster_name?: string;
  project_name?: string;
}

/**
 * Who reads which usage (docs/billing.md "Reports"):
 * - an organization's: its managers (and system administrators);
 * - a project's: also its managers (project settings show reports to them);
 * - an organization's on one cluster: also that cluster's managers;
 * - a whole cluster's, across organizations (no org_name): its managers and system administrators.
 * Anyone else gets the engine's answer for the organization (404 for a stranger, 403 for a member),
 * so a narrower scope never leaks more than the organization's own check would.
 */
export async function authorizeUsage(request: FastifyRequest, q: Scope) {
  if (!q.org_name) return authorize(request, clusterUri(q.cluster_name!), 'manage');
  const grants = await request.grants();
  const org = orgUri(q.org_name);
  const { cluster_name: cluster, project_name: project } = q;
  if (cluster && project && allows(grants, projectUri(cluster, q.org_name, project), 'manage'))
    return;
  // A cluster's managers read each of its organizations' usage on it (as a member of it).
  if (cluster && allows(grants, org, 'read') && allows(grants, clusterUri(cluster), 'manage'))
    return;
  return authorize(request, org, 'manage');
}
