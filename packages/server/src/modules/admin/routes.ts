import { z } from 'zod';
import { and, eq } from 'drizzle-orm';
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
import { clusterOrgs, clusters, organizations } from '../../db/schema.js';
import { conflict, forbidden, invalid, notFound } from '../../http/errors.js';
import { ADMIN_API, errorResponses } from '../../http/route.js';
import { invalidateCatalog } from '../clusters/store.js';
import { clusterByName, clusterOrgLink, clusterOrgsOf } from './store.js';
import { adminOrgs } from '../orgs/store.js';
import { changeBalance, setBalance } from '../billing/ledger.js';
import { applyOrgQuota, changeOrgQuota } from '../quotas/service.js';
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
        await clusterByName(db, cluster);
        const [org] = await db
          .select()
          .from(organizations)
          .where(eq(organizations.name, b.org_name));
        if (!org) throw invalid('org_name', `Organization ${b.org_name} not found`);
        await db.transaction(async (tx) => {
          const inserted = await tx
            .insert(clusterOrgs)
            .values({ clusterName: cluster, orgName: b.org_name })
            .onConflictDoNothing()
            .returning();
          if (inserted.length === 0) {
            throw conflict(
              `Organization ${b.org_name} is already linked to ${cluster}`,
              'org_name',
            );
          }
          await applyOrgQuota(tx, cluster, b.org_name, { quota: b.quota });
        });
        return reply.status(201).send(await clusterOrgLink(db, cluster, b.org_name));
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
        await clusterOrgLink(db, cluster, org);
        await db
          .delete(clusterOrgs)
          .where(and(eq(clusterOrgs.clusterName, cluster), eq(clusterOrgs.orgName, org)));
        return reply.status(204).send(null);
      },
    );

    const volumesOf = async (cluster: string) =>
      (await clusterByName(db, cluster)).storageVolumes.map((v) => ({
        name: v.name,
        credits_per_hour_per_gb: v.creditsPerHourPerGb,
      }));

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
      async (request) => volumesOf(request.params.cluster),
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
        const row = await clusterByName(db, cluster);
        if (!row.storageVolumes.some((v) => v.name === volume)) {
          throw notFound(`Storage volume ${volume} not found`);
        }
        const credits = request.body.credits_per_hour_per_gb;
        await db
          .update(clusters)
          .set({
            storageVolumes: row.storageVolumes.map((v) =>
              v.name === volume ? { ...v, creditsPerHourPerGb: credits } : v,
            ),
          })
          .where(eq(clusters.name, cluster));
        invalidateCatalog(db);
        return { name: volume, credits_per_hour_per_gb: credits };
      },
    );

    app.get(
      `${ADMIN_API}/clusters/:cluster/disk_price`,
      {
        config: system,
        schema: { tags, params: ClusterParams, response: { 200: DiskPrice, ...errorResponses } },
      },
      async (request) => ({
        credits_per_day_per_gb: (await clusterByName(db, request.params.cluster))
          .diskCreditsPerDayPerGb,
      }),
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
        await clusterByName(db, cluster);
        const [row] = await db
          .update(clusters)
          .set({ diskCreditsPerDayPerGb: request.body.credits_per_day_per_gb })
          .where(eq(clusters.name, cluster))
          .returning({ price: clusters.diskCreditsPerDayPerGb });
        invalidateCatalog(db);
        return { credits_per_day_per_gb: row!.price };
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
        const b = request.body;
        const [exists] = await db
          .select({ name: organizations.name })
          .from(organizations)
          .where(eq(organizations.name, org));
        if (!exists) throw notFound(`Organization ${org} not found`);
        const who = { userId: requireUser(request).id, reference: 'administrator' };
        await db.transaction((tx) =>
          b.credits !== undefined
            ? setBalance(tx, { org, credits: b.credits, ...who })
            : // Adding to unlimited credits keeps them unlimited (changeBalance).
              changeBalance(tx, {
                org,
                kind: 'grant',
                credits: String(b.additional_credits),
                ...who,
              }),
        );
        return (await adminOrgs(db)).find((o) => o.name === org)!;
      },
    );
  };
