import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { PlatformConfig, type PlatformConfigWire } from '@orrery/contract';
import type { AppContext } from '../../context.js';
import { oidcEndpoints } from '../../auth/endpoints.js';
import { orgsOfUser } from '../orgs/store.js';
import { projectsOfUser } from '../projects/store.js';
import { visibleClusters } from '../clusters/visible.js';
import { loadClusters } from '../clusters/store.js';
import { clusterWire } from '../clusters/wire.js';
import { brandingFor } from './branding.js';

/** `GET /api/v1/config`: the Apolo CLI's entry point and the console's first call (apolo-wire §1). */
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
          branding: brandingFor(ctx.config, request.hostname),
        };
        const user = request.principal;
        if (!user) return anonymous;
        const [orgs, projects] = await Promise.all([
          orgsOfUser(ctx.db, user.id),
          projectsOfUser(ctx.db, user.id),
        ]);
        const orgNames = orgs.map((o) => o.name);
        const visible = await visibleClusters(ctx.db, user, orgNames);
        const loaded = await loadClusters(
          ctx.db,
          visible.map((c) => c.name),
        );
        const mine = user.systemRole === 'admin' ? null : new Set(orgNames);
        return {
          ...anonymous,
          authorized: true,
          orgs: orgs.map((o) => ({ name: o.name, role: o.role })),
          clusters: loaded.map((c) => clusterWire(c, base, mine)),
          projects: projects
            .filter((p) => p.role !== null)
            .map((p) => ({
              name: p.name,
              role: p.role!,
              cluster_name: p.clusterName,
              org_name: p.orgName,
            })),
        };
      },
    );
  };
