import { z } from 'zod';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  ClusterOrg,
  INT4_MAX,
  clusterUri,
  OrgQuotaInput,
  OrgQuotaView,
  orgUri,
  ProjectQuota,
  ProjectQuotaView,
  projectUri,
  QUOTA_TEXTS,
  ResourceDeltas,
} from '@orrery/contract';
import type { ClusterOrgWire } from '@orrery/contract';
import type { AppContext } from '../../context.js';
import { allows } from '../../auth/permissions.js';
import { requireUser } from '../../auth/principal.js';
import { forbidden, notFound } from '../../http/errors.js';
import { authorize } from '../../http/access.js';
import { errorResponses } from '../../http/route.js';
import { ADMIN_API } from '../../http/route.js';
import { changeOrgQuota, orgQuotaView, projectQuotaView, setProjectQuota } from './service.js';

const tags = ['admin'];
const ClusterOrgParams = z.object({ cluster: z.string().min(1), org: z.string().min(1) });
const ProjectParams = ClusterOrgParams.extend({ project: z.string().min(1) });
type Place = z.infer<typeof ProjectParams>;

/**
 * Apolo's `PATCH .../orgs/{org}/quota`: a new quota (`quota`), or deltas (`additional_quota`,
 * added to what is limited; an unlimited amount stays so), never both.
 */
const OrgQuotaPatch = z
  .object({
    quota: OrgQuotaInput.optional(),
    additional_quota: ResourceDeltas.extend({
      total_running_jobs: z.number().int().min(-INT4_MAX).max(INT4_MAX).optional(),
    })
      .strict()
      .optional(),
  })
  .strict()
  .refine((b) => (b.quota === undefined) !== (b.additional_quota === undefined), {
    message: QUOTA_TEXTS.oneChange,
  });

/**
 * Resource quotas (docs/quotas.md). An organization's quota on a cluster is its cluster's
 * managers' (system administrators included); a project's, a share of it, is the organization's
 * managers' (and the cluster's); a project's members may read their project's.
 */
export const quotaRoutes =
  (
    ctx: AppContext,
    /** The organization's link as the admin area answers it (admin/store.ts), after a change. */
    linkOf: (cluster: string, org: string) => Promise<ClusterOrgWire>,
  ): FastifyPluginAsyncZod =>
  async (app) => {
    const { db } = ctx;

    /** Who may see or split the organization's quota: its managers and the cluster's. */
    const manages = async (request: FastifyRequest, cluster: string, org: string) => {
      const grants = await request.grants();
      return allows(grants, clusterUri(cluster), 'manage') || allows(grants, orgUri(org), 'manage');
    };

    /** 'manage' for those who split the organization's quota, 'read' for the project's members. */
    const projectAccess = async (request: FastifyRequest, p: Place) => {
      if (await manages(request, p.cluster, p.org)) return 'manage';
      const grants = await request.grants();
      if (allows(grants, projectUri(p.cluster, p.org, p.project), 'read')) return 'read';
      // Another organization's project and one that does not exist read the same.
      throw notFound(`Project ${p.project} not found`);
    };

    app.patch(
      `${ADMIN_API}/clusters/:cluster/orgs/:org/quota`,
      {
        config: { access: 'user' },
        schema: {
          tags,
          params: ClusterOrgParams,
          body: OrgQuotaPatch,
          response: { 200: ClusterOrg, ...errorResponses },
        },
      },
      async (request) => {
        const { cluster, org } = request.params;
        await authorize(request, clusterUri(cluster), 'manage', `Cluster ${cluster} not found`);
        const b = request.body;
        await changeOrgQuota(
          db,
          cluster,
          org,
          b.quota ? { quota: b.quota } : { additional_quota: b.additional_quota! },
        );
        return linkOf(cluster, org);
      },
    );

    app.get(
      `${ADMIN_API}/clusters/:cluster/orgs/:org/quota`,
      {
        config: { access: 'user-or-token' },
        schema: {
          tags,
          params: ClusterOrgParams,
          response: { 200: OrgQuotaView, ...errorResponses },
        },
      },
      async (request) => {
        const { cluster, org } = request.params;
        const missing = `Organization ${org} is not linked to ${cluster} cluster`;
        const all = await manages(request, cluster, org);
        const grants = await request.grants();
        const member = (await (await request.accessSnapshot()).memberships(requireUser(request)))
          .projects;
        const sees = (project: string) =>
          all || allows(grants, projectUri(cluster, org, project), 'read');
        // The organization's readers and the members of its projects on the cluster.
        if (!all && !member.some((p) => p.cluster === cluster && p.org === org))
          await authorize(request, orgUri(org), 'read', missing);
        return orgQuotaView(db, cluster, org, sees);
      },
    );

    app.get(
      `${ADMIN_API}/clusters/:cluster/orgs/:org/projects/:project/quota`,
      {
        config: { access: 'user-or-token' },
        schema: {
          tags,
          params: ProjectParams,
          response: { 200: ProjectQuotaView, ...errorResponses },
        },
      },
      async (request) => {
        await projectAccess(request, request.params);
        return projectQuotaView(db, request.params);
      },
    );

    app.put(
      `${ADMIN_API}/clusters/:cluster/orgs/:org/projects/:project/quota`,
      {
        config: { access: 'user' },
        schema: {
          tags,
          params: ProjectParams,
          body: ProjectQuota,
          response: { 200: ProjectQuotaView, ...errorResponses },
        },
      },
      async (request) => {
        if ((await projectAccess(request, request.params)) !== 'manage') throw forbidden();
        await setProjectQuota(db, request.params, request.body);
        return projectQuotaView(db, request.params);
      },
    );
  };
