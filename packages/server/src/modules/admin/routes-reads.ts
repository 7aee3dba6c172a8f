import { z } from 'zod';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  AdminCluster,
  AdminOrg,
  AdminProject,
  ClusterMember,
  ClusterOrg,
  ConfigCluster,
  isManagerRole,
  orgUri,
  WithUserInfo,
} from '@orrery/contract';
import type { AppContext } from '../../context.js';
import { requireUser } from '../../auth/principal.js';
import { notFound } from '../../http/errors.js';
import { authorize } from '../../http/access.js';
import { ADMIN_API, errorResponses } from '../../http/route.js';
import { visibleFrom } from '../clusters/visible.js';
import { configClusterWire } from '../clusters/wire.js';
import { userInfo } from '../people/wire.js';
import {
  adminClusters,
  adminOrgs,
  adminProjects,
  clusterMembers,
  clusterNames,
  clusterOrgLink,
  loadClusters,
} from './service.js';

const tags = ['admin'];
const user = { access: 'user' as const };
const ClusterParams = z.object({ cluster: z.string().min(1) });
const ClusterOrgParams = ClusterParams.extend({ org: z.string().min(1) });
const OrgParams = z.object({ org: z.string().min(1) });

/**
 * What the caller may see of the admin API's lists: everything for a system administrator, else
 * their own clusters, organizations and projects (and, as an organization's manager, all of its
 * projects), from the access snapshot of the request.
 */
async function scopeOf(request: FastifyRequest) {
  const caller = requireUser(request);
  if (caller.systemRole === 'admin') return null;
  const m = await (await request.accessSnapshot()).memberships(caller);
  const managed = new Set(m.orgs.filter((o) => isManagerRole(o.role)).map((o) => o.name));
  return {
    callerId: caller.id,
    clusters: new Set(visibleFrom(m, []).map((c) => c.name)),
    clusterRoles: new Map(m.clusters.map((c) => [c.name, c.role])),
    orgs: new Set(m.orgs.map((o) => o.name)),
    project: (p: { cluster: string; org: string; name: string }) =>
      managed.has(p.org) ||
      m.projects.some((q) => q.cluster === p.cluster && q.org === p.org && q.name === p.name),
  };
}
type Scope = Awaited<ReturnType<typeof scopeOf>>;

const clusterMissing = (name: string) => notFound(`Cluster ${name} not found`);
const seesCluster = (scope: Scope, name: string) => !scope || scope.clusters.has(name);

/**
 * The reads of `apolo admin` (get-clusters, get-orgs, get-org-users, get-projects, get-cluster-
 * users) and of `apolo config show` once `/config` names `admin_url`. Any signed-in
 * user may call them and sees only what is theirs; changes stay in the admin area's routes.
 */
export const adminReadRoutes =
  (ctx: AppContext): FastifyPluginAsyncZod =>
  async (app) => {
    const { db } = ctx;
    const visibleClusters = async (request: FastifyRequest) => {
      const scope = await scopeOf(request);
      return (await adminClusters(db)).filter((c) => seesCluster(scope, c.name));
    };

    app.get(
      `${ADMIN_API}/clusters`,
      {
        config: user,
        schema: { tags, response: { 200: z.array(AdminCluster), ...errorResponses } },
      },
      async (request) => visibleClusters(request),
    );

    app.get(
      `${ADMIN_API}/clusters/:cluster`,
      {
        config: user,
        schema: { tags, params: ClusterParams, response: { 200: AdminCluster, ...errorResponses } },
      },
      async (request) => {
        const found = (await visibleClusters(request)).find(
          (c) => c.name === request.params.cluster,
        );
        if (!found) throw clusterMissing(request.params.cluster);
        return found;
      },
    );

    // The cluster-config API's list (neuro-config-client `GET clusters`).
    app.get(
      '/api/v1/clusters',
      {
        config: user,
        schema: { tags, response: { 200: z.array(ConfigCluster), ...errorResponses } },
      },
      async (request) => {
        const scope = await scopeOf(request);
        const names = (await clusterNames(db)).filter((n) => seesCluster(scope, n));
        return (await loadClusters(ctx.clusterCatalog, names)).map((c) =>
          configClusterWire(c, ctx.config),
        );
      },
    );

    app.get(
      `${ADMIN_API}/clusters/:cluster/orgs/:org`,
      {
        config: { access: 'user-or-token' as const },
        schema: {
          tags,
          params: ClusterOrgParams,
          response: { 200: ClusterOrg, ...errorResponses },
        },
      },
      async (request) => {
        const { cluster, org } = request.params;
        // The quota its jobs run under: the organization's readers, and the members of its
        // projects on the cluster (the official CLI's `config show` reads it).
        const m = await (await request.accessSnapshot()).memberships(requireUser(request));
        if (!m.projects.some((p) => p.cluster === cluster && p.org === org))
          await authorize(request, orgUri(org), 'read');
        return clusterOrgLink(db, cluster, org);
      },
    );

    app.get(
      `${ADMIN_API}/orgs`,
      { config: user, schema: { tags, response: { 200: z.array(AdminOrg), ...errorResponses } } },
      async (request) => {
        const scope = await scopeOf(request);
        return (await adminOrgs(db)).filter((o) => !scope || scope.orgs.has(o.name));
      },
    );

    app.get(
      `${ADMIN_API}/orgs/:org`,
      {
        config: {
          access: { uri: (r) => orgUri((r.params as { org: string }).org), action: 'read' },
        },
        schema: { tags, params: OrgParams, response: { 200: AdminOrg, ...errorResponses } },
      },
      async (request) => {
        const found = (await adminOrgs(db)).find((o) => o.name === request.params.org);
        if (!found) throw notFound(`Organization ${request.params.org} not found`);
        return found;
      },
    );

    const listProjects = async (request: FastifyRequest, cluster: string, org?: string) => {
      const scope = await scopeOf(request);
      if (!seesCluster(scope, cluster)) throw clusterMissing(cluster);
      return (await adminProjects(db, cluster, org)).filter(
        (p) => !scope || scope.project({ cluster, org: p.org_name, name: p.name }),
      );
    };

    app.get(
      `${ADMIN_API}/clusters/:cluster/projects`,
      {
        config: user,
        schema: {
          tags,
          params: ClusterParams,
          response: { 200: z.array(AdminProject), ...errorResponses },
        },
      },
      async (request) => listProjects(request, request.params.cluster),
    );

    app.get(
      `${ADMIN_API}/clusters/:cluster/orgs/:org/projects`,
      {
        config: user,
        schema: {
          tags,
          params: ClusterOrgParams,
          response: { 200: z.array(AdminProject), ...errorResponses },
        },
      },
      async (request) => listProjects(request, request.params.cluster, request.params.org),
    );

    app.get(
      `${ADMIN_API}/clusters/:cluster/users`,
      {
        config: user,
        schema: {
          tags,
          params: ClusterParams,
          querystring: WithUserInfo,
          response: { 200: z.array(ClusterMember), ...errorResponses },
        },
      },
      async (request) => {
        const { cluster } = request.params;
        const scope = await scopeOf(request);
        if (!seesCluster(scope, cluster)) throw clusterMissing(cluster);
        // A cluster's managers see its members; anyone else, only themselves.
        const seesAll = !scope || isManagerRole(scope.clusterRoles.get(cluster));
        const rows = await clusterMembers(db, cluster, seesAll ? undefined : scope.callerId);
        return rows.map((r) => ({
          user_name: r.username,
          cluster_name: cluster,
          org_name: null,
          role: r.role,
          ...(request.query.with_user_info ? { user_info: userInfo(r) } : {}),
        }));
      },
    );
  };
