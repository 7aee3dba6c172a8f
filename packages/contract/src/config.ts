import { z } from 'zod';
import { Cluster } from './clusters.js';
import { OrgRole, ProjectRole } from './roles.js';

export const Branding = z.object({
  title: z.string(),
  logo_url: z.string().nullable(),
  /** "Powered by" line of partner brands; null for the product's own brand. */
  powered_by: z.string().nullable(),
});
export type BrandingWire = z.infer<typeof Branding>;

/** `GET /api/v1/config`: the Apolo CLI's entry point and the console's first call. */
export const PlatformConfig = z
  .object({
    authorized: z.boolean(),
    auth_url: z.string(),
    token_url: z.string(),
    logout_url: z.string(),
    client_id: z.string(),
    audience: z.string(),
    headless_callback_url: z.string(),
    callback_urls: z.array(z.string()),
    success_redirect_url: z.string(),
    /** OIDC issuer the console signs in against (discovery at `/.well-known/openid-configuration`). */
    issuer: z.string(),
    admin_url: z.string().optional(),
    support_email: z.string().nullable(),
    /** The Terms of Use a user accepts (the Terms modal links to them). */
    terms_url: z.string(),
    branding: Branding,
    orgs: z.array(z.object({ name: z.string(), role: OrgRole })).optional(),
    clusters: z.array(Cluster).optional(),
    projects: z
      .array(
        z.object({
          name: z.string(),
          role: ProjectRole,
          cluster_name: z.string(),
          org_name: z.string(),
        }),
      )
      .optional(),
  })
  .meta({ id: 'PlatformConfig' });
export type PlatformConfigWire = z.infer<typeof PlatformConfig>;
