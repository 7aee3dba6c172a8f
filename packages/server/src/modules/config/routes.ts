import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  PlatformConfig,
  type MemberRole,
  type OrgRole,
  type PlatformConfigWire,
} from '@orrery/contract';
import type { AppContext } from '../../context.js';
import { ADMIN_API } from '../../http/route.js';
import { oidcEndpoints } from '../../auth/endpoints.js';
import { clusterWire } from '../clusters/wire.js';
import { brandingFor } from './branding.js';
import { configClusters } from './service.js';

/** `GET /api/v1/config`: the Apolo CLI's entry point and the console's first call. */
export const configRoutes =
  (ctx: AppContext): FastifyPluginAsyncZod =>
  async (app) => {
    const endpoints = await oidcEndpoints(ctx.config);
    const base = ctx.config.publicUrl;
    app.get(
      '/api/v1/config',
      {
        config: { access: 'public' },
        schema: { tags: ['config'], response: { 200: PlatformConfig } },
      },
      async (request) => {
        const anonymous: PlatformConfigWire = {
          authorized: false,
          auth_url: endpoints.authorization,
          token_url: endpoints.token,
          logout_url: endpoints.endSession,
          client_id: ctx.config.oidc.clientId,
          audience: ctx.config.oidc.audience,
          headless_callback_url: `${base}/oauth/show-code`,
          callback_urls: [
            'http://127.0.0.1:54540',
            'http://127.0.0.1:54541',
            'http://127.0.0.1:54542',
          ],
          success_redirect_url: `${base}/`,
          issuer: ctx.config.oidc.issuer,
          support_email: ctx.config.supportEmail,
          terms_url: ctx.config.termsUrl,
          branding: brandingFor(ctx.config, request.hostname),
        };
        const user = request.principal;
        if (!user) return anonymous;
        // Memberships and cluster names of the access snapshot: shared by the caller's requests
        // until something that grants access changes.
        const access = await request.accessSnapshot();
        const m = await access.memberships(user);
        const admin = user.systemRole === 'admin';
        const every = admin ? await access.clusters() : null;
        const loaded = await configClusters(ctx.clusterCatalog, m, every);
        // Only the caller's own organizations are named, and those of their projects.
        const mine = admin
          ? null
          : new Set([...m.orgs.map((o) => o.name), ...m.projects.map((p) => p.org)]);
        return {
          ...anonymous,
          authorized: true,
          // With it the Apolo CLI turns on `apolo admin` and quotas in `config show`.
          admin_url: `${base}${ADMIN_API}`,
          orgs: m.orgs.map((o) => ({ name: o.name, role: o.role as OrgRole })),
          clusters: loaded.map((c) => clusterWire(c, base, mine)),
          projects: m.projects.map((p) => ({
            name: p.name,
            role: p.role as MemberRole,
            cluster_name: p.cluster,
            org_name: p.org,
          })),
        };
      },
    );
  };
