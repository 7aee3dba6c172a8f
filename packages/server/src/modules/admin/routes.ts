import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  AdminOrg,
  clusterUri,
  ClusterOrg,
  ClusterOrgAdd,
  ClusterOrgUpdate,
  LookupUser,
  OrgBalancePatch,
  SEARCH_MIN,
  PEOPLE_TEXTS,
  StorageVolume,
  StorageVolumeCredits,
  DiskPrice,
  DiskPriceCredits,
  SystemUser,
  SystemUserCreate,
  SystemUserUpdate,
} from '@orrery/contract';
import type { AppContext } from '../../context.js';
import { requireUser } from '../../auth/principal.js';
import { forbidden, invalid } from '../../http/errors.js';
import { ADMIN_API, errorResponses } from '../../http/route.js';
import {
  clusterByName,
  clusterOrgLink,
  clusterOrgsOf,
  diskPrice,
  linkOrg,
  priceDisks,
  priceStorageVolume,
  setOrgBalance,
  storageVolumes,
  unlinkOrg,
} from './service.js';
import { changeOrgQuota } from '../quotas/service.js';
import { authorize } from '../../http/access.js';
import {
  createSystemUser,
  deleteSystemUser,
  lookupUsers,
  setSystemRole,
  systemUsers,
  systemUserWire,
} from './users.js';

const tags = ['admin'];
const system = { access: 'system' as const };
const ClusterParams = z.object({ cluster: z.string().min(1) });
const ClusterOrgParams = ClusterParams.extend({ org: z.string().min(1) });
const VolumeParams = ClusterParams.extend({ volume: z.string().min(1) });
const UserParams = z.object({ user: z.string().min(1) });
const OrgParams = z.object({ org: z.string().min(1) });
const UsersQuery = z.object({
  lookup: z
    .enum(['true', 'false'])
    .default('false')
    .transform((v) => v === 'true'),
  query: z.string().default(''),
});

/**
 * The admin area: system users, clusters and their organizations, storage volumes and credits
 * (resource presets and node pools are in routes-capacity.ts). Everything but the invite
 * dialog's user lookup is for system administrators only (the reads members may make are in
 * routes-reads.ts).
 */
export const adminRoutes =
  (ctx: AppContext): FastifyPluginAsyncZod =>
  async (app) => {
    const { db } = ctx;

    app.get(
      `${ADMIN_API}/users`,
      {
        config: { access: 'user' },
        schema: {
          tags,
          querystring: UsersQuery,
          response: { 200: z.union([z.array(SystemUser), z.array(LookupUser)]), ...errorResponses },
        },
      },
      async (request) => {
        const caller = requireUser(request);
        const { lookup, query } = request.query;
        if (lookup) {
          if (query.trim().length < SEARCH_MIN) throw invalid('query', PEOPLE_TEXTS.typeMore);
          return lookupUsers(ctx, caller, query);
        }
        if (caller.systemRole !== 'admin') throw forbidden();
        return systemUsers(ctx);
      },
    );

    app.post(
      `${ADMIN_API}/users`,
      {
        config: system,
        schema: { tags, body: SystemUserCreate, response: { 201: SystemUser, ...errorResponses } },
      },
      async (request, reply) =>
        reply.status(201).send(systemUserWire(await createSystemUser(ctx, request, request.body))),
    );

    app.put(
      `${ADMIN_API}/users/:user`,
      {
        config: system,
        schema: {
          tags,
          params: UserParams,
          body: SystemUserUpdate,
          response: { 200: SystemUser, ...errorResponses },
        },
      },
      async (request) =>
        systemUserWire(
          await setSystemRole(ctx, requireUser(request), request.params.user, request.body.role),
        ),
    );

    app.delete(
      `${ADMIN_API}/users/:user`,
      {
        config: system,
        schema: { tags, params: UserParams, response: { 204: z.null(), ...errorResponses } },
      },
      async (request, reply) => {
        await deleteSystemUser(ctx, requireUser(request), request.params.user);
        return reply.status(204).send(null);
      },
    );

    app.get(
      `${ADMIN_API}/clusters/:cluster/orgs`,
      {
        config: system,
        schema: {
          tags,
          params: ClusterParams,
          response: { 200: z.array(ClusterOrg), ...errorResponses },
        },
      },
      async (request) => {
        await clusterByName(db, request.params.cluster);
        return clusterOrgsOf(db, request.params.cluster);
      },
    );

    app.post(
      `${ADMIN_API}/clusters/:cluster/orgs`,
      {
        config: system,
        schema: {
          tags,
          params: ClusterParams,
          body: ClusterOrgAdd,
          response: { 201: ClusterOrg, ...errorResponses },
        },
      },
      async (request, reply) => {
        const { cluster } = request.params;
        const b = request.body;
        return reply.status(201).send(await linkOrg(db, cluster, b.org_name, { quota: b.quota }));
      },
    );

    // `apolo admin update-org-cluster`: the quota it sends is the jobs quota alone, so the
    // resource quotas it does not name stay (docs/quotas.md). The cluster's managers may.
    app.put(
      `${ADMIN_API}/clusters/:cluster/orgs/:org`,
      {
        config: { access: 'user' },
        schema: {
          tags,
          params: ClusterOrgParams,
          body: ClusterOrgUpdate,
          response: { 200: ClusterOrg, ...errorResponses },
        },
      },
      async (request) => {
        const { cluster, org } = request.params;
        await authorize(request, clusterUri(cluster), 'manage', `Cluster ${cluster} not found`);
        await changeOrgQuota(db, cluster, org, { quota: request.body.quota });
        return clusterOrgLink(db, cluster, org);
      },
    );

    app.delete(
      `${ADMIN_API}/clusters/:cluster/orgs/:org`,
      {
        config: system,
        schema: { tags, params: ClusterOrgParams, response: { 204: z.null(), ...errorResponses } },
      },
      async (request, reply) => {
        const { cluster, org } = request.params;
        await unlinkOrg(db, cluster, org);
        return reply.status(204).send(null);
      },
    );

    app.get(
      `${ADMIN_API}/clusters/:cluster/storage_volumes`,
      {
        config: system,
        schema: {
          tags,
          params: ClusterParams,
          response: { 200: z.array(StorageVolume), ...errorResponses },
        },
      },
      async (request) => storageVolumes(db, request.params.cluster),
    );

    app.patch(
      `${ADMIN_API}/clusters/:cluster/storage_volumes/:volume`,
      {
        config: system,
        schema: {
          tags,
          params: VolumeParams,
          body: StorageVolumeCredits,
          response: { 200: StorageVolume, ...errorResponses },
        },
      },
      async (request) => {
        const { cluster, volume } = request.params;
        const credits = request.body.credits_per_hour_per_gb;
        return priceStorageVolume(db, ctx.clusterCatalog, cluster, volume, credits);
      },
    );

    app.get(
      `${ADMIN_API}/clusters/:cluster/disk_price`,
      {
        config: system,
        schema: { tags, params: ClusterParams, response: { 200: DiskPrice, ...errorResponses } },
      },
      async (request) => diskPrice(db, request.params.cluster),
    );

    app.patch(
      `${ADMIN_API}/clusters/:cluster/disk_price`,
      {
        config: system,
        schema: {
          tags,
          params: ClusterParams,
          body: DiskPriceCredits,
          response: { 200: DiskPrice, ...errorResponses },
        },
      },
      async (request) => {
        const { cluster } = request.params;
        return priceDisks(db, ctx.clusterCatalog, cluster, request.body.credits_per_day_per_gb);
      },
    );

    app.patch(
      `${ADMIN_API}/orgs/:org/balance`,
      {
        config: system,
        schema: {
          tags,
          params: OrgParams,
          body: OrgBalancePatch,
          response: { 200: AdminOrg, ...errorResponses },
        },
      },
      async (request) => {
        const { org } = request.params;
        return setOrgBalance(db, org, request.body, requireUser(request).id);
      },
    );
  };
