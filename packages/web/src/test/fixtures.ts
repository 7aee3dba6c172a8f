import {
  Cluster as ClusterSchema,
  ErrorBody,
  Exists,
  Org,
  PlatformConfig,
  Project,
  User,
  toCamel,
} from '@orrery/contract';
import type { PlatformConfigWire, UserWire } from '@orrery/contract';
import type { Cluster, PlatformConfig as Config, User as CamelUser } from '../api/types';

/**
 * Canned wire bodies, each parsed with the contract's zod schema so that a change of the
 * contract breaks these tests instead of silently drifting from the server.
 */
export const wire = {
  config: (over: Partial<PlatformConfigWire> = {}) =>
    PlatformConfig.parse({
      authorized: false,
      auth_url: 'http://localhost:8080/oidc/auth',
      token_url: 'http://localhost:8080/oidc/token',
      logout_url: 'http://localhost:8080/oidc/session/end',
      client_id: 'orrery-console',
      audience: 'orrery',
      headless_callback_url: 'http://localhost:8080/oidc/headless',
      callback_urls: ['http://127.0.0.1:54540'],
      success_redirect_url: 'http://localhost:8080/',
      issuer: 'http://localhost:8080/oidc',
      support_email: 'support@example.org',
      terms_url: '/docs/terms.md',
      branding: { title: 'Orrery', logo_url: null, powered_by: null },
      ...over,
    }),
  cluster: (name: string, orgs: string[]) =>
    ClusterSchema.parse({
      name,
      location: 'eu-west',
      logo_url: null,
      orgs,
      registry_url: 'http://localhost:8080/registry',
      storage_url: 'http://localhost:8080/api/v1/storage',
      users_url: 'http://localhost:8080/api/v1/users',
      monitoring_url: 'http://localhost:8080/api/v1/jobs',
      secrets_url: 'http://localhost:8080/api/v1/secrets',
      disks_url: 'http://localhost:8080/api/v1/disk',
      buckets_url: 'http://localhost:8080/api/v1/buckets',
      resource_pool_types: [],
      resource_presets: [],
      storage_volumes: [],
      timezone: 'UTC',
      energy_schedules: [],
      apps: { apps_hostname_templates: [], app_proxy_url: '', launchpad_use_subdomain: false },
    }),
  user: (over: Partial<UserWire> = {}) =>
    User.parse({
      username: 'alice',
      name: 'Alice Smith',
      email: 'alice@example.org',
      email_verified: true,
      terms_accepted: true,
      picture: null,
      system_role: null,
      orgs: [],
      clusters: [],
      projects: [],
      ...over,
    }),
  org: (name: string) =>
    Org.parse({ name, role: 'admin', balance: { credits: null }, projects_count: 0 }),
  project: (name: string, org: string, cluster: string) =>
    Project.parse({
      name,
      org_name: org,
      cluster_name: cluster,
      role: 'admin',
      is_default: false,
      default_role: 'writer',
    }),
  exists: (exists: boolean) => Exists.parse({ exists }),
  error: (body: unknown) => ErrorBody.parse(body),
};

export const camel = {
  config: (over: Partial<PlatformConfigWire> = {}): Config => toCamel(wire.config(over)),
  cluster: (name: string, orgs: string[]): Cluster => toCamel(wire.cluster(name, orgs)),
  user: (over: Partial<UserWire> = {}): CamelUser => toCamel(wire.user(over)),
};

/** Two organizations, two clusters, four projects: enough to see every context fallback. */
export function world(over: Partial<UserWire> = {}) {
  const userWire = wire.user({
    orgs: [
      { name: 'acme', role: 'manager', balance: { credits: '1234.5' }, projects_count: 3 },
      { name: 'beta', role: 'user', balance: { credits: null }, projects_count: 1 },
    ],
    clusters: [
      { name: 'default', role: 'user', orgs: ['acme', 'beta'] },
      { name: 'gpu', role: 'manager', orgs: ['acme'] },
    ],
    projects: [
      { name: 'vision', org_name: 'acme', cluster_name: 'default', role: 'manager' },
      { name: 'nlp', org_name: 'acme', cluster_name: 'default', role: 'reader' },
      { name: 'ops', org_name: 'acme', cluster_name: 'gpu', role: 'writer' },
      { name: 'web', org_name: 'beta', cluster_name: 'default', role: 'writer' },
    ],
    ...over,
  });
  const configWire: PlatformConfigWire = wire.config({
    authorized: true,
    clusters: [wire.cluster('default', ['acme', 'beta']), wire.cluster('gpu', ['acme'])],
    orgs: (userWire.orgs ?? []).map((o) => ({ name: o.name, role: o.role })),
    projects: (userWire.projects ?? []).map((p) => ({ ...p })),
  });
  return {
    userWire,
    configWire,
    user: toCamel(userWire) as CamelUser,
    sessionConfig: toCamel(configWire) as Config,
  };
}
