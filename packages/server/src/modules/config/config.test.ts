import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PlatformConfig } from '@orrery/contract';
import { startTestServer, type TestServer } from '../../test/harness.js';
import { call, tenancy } from '../../test/fixtures.js';

describe('GET /api/v1/config', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer({
      ORRERY_WHITE_LABELS: JSON.stringify({
        'ml.partner.test': { title: 'Partner ML', powered_by: 'Orrery' },
      }),
      ORRERY_SUPPORT_EMAIL: 'help@example.test',
    });
  });
  afterAll(() => s.stop());

  it('answers anonymously with the OAuth fields the Apolo CLI requires', async () => {
    const { status, body } = await call(s, 'GET', '/api/v1/config');
    expect(status).toBe(200);
    PlatformConfig.parse(body);
    expect(body.authorized).toBe(false);
    expect(body.auth_url).toBe(`${s.url}/oidc/auth`);
    expect(body.token_url).toBe(`${s.url}/oidc/token`);
    expect(body.clusters).toBeUndefined();
    expect(body.support_email).toBe('help@example.test');
    // The shipped Terms of Use unless the operator names theirs (ORRERY_TERMS_URL).
    expect(body.terms_url).toBe('/docs/terms.md');
    expect((await s.app.inject({ url: body.terms_url })).statusCode).toBe(200);
    expect(body.branding).toEqual({ title: 'Orrery', logo_url: null, powered_by: null });
  });

  it('treats an invalid token as not authorized', async () => {
    const res = await s.app.inject({
      url: '/api/v1/config',
      headers: { authorization: 'Bearer not.a.jwt' },
    });
    expect(res.json().authorized).toBe(false);
  });

  it('lists the caller’s clusters with every service address, pools, presets and projects', async () => {
    const { owner } = await tenancy(s);
    const { body } = await call(s, 'GET', '/api/v1/config', owner);
    PlatformConfig.parse(body);
    expect(body.authorized).toBe(true);
    expect(body.orgs).toEqual([{ name: 'acme', role: 'admin' }]);
    expect(body.projects).toEqual([
      { name: 'vision', role: 'admin', cluster_name: 'default', org_name: 'acme' },
    ]);
    const [cluster] = body.clusters;
    expect(cluster.name).toBe('default');
    expect(cluster.orgs).toEqual(['acme']);
    for (const key of [
      'registry_url',
      'storage_url',
      'users_url',
      'monitoring_url',
      'secrets_url',
      'disks_url',
      'buckets_url',
    ]) {
      expect(cluster[key]).toMatch(/^http:\/\/127\.0\.0\.1:\d+(\/|$)/);
    }
    expect(cluster.disks_url).toBe(`${s.url}/api/v1/disk`);
    expect(cluster.resource_pool_types).toHaveLength(1);
    const names = cluster.resource_presets.map((p: { name: string }) => p.name);
    expect(names.slice(0, 3)).toEqual(['cpu-small', 'cpu-medium', 'cpu-large']);
    const pool = cluster.resource_pool_types[0];
    for (const p of cluster.resource_presets) {
      expect(p.cpu).toBeLessThanOrEqual(pool.cpu);
      expect(p.memory).toBeLessThanOrEqual(pool.memory);
      expect(Number(p.credits_per_hour)).toBeGreaterThan(0);
    }
  });

  it('shows no cluster to a user without an organization', async () => {
    const loner = await s.user();
    const { body } = await call(s, 'GET', '/api/v1/config', loner);
    expect(body.authorized).toBe(true);
    expect(body.clusters).toEqual([]);
    expect(body.orgs).toEqual([]);
  });

  it('brands by hostname, with the partner’s "Powered by" line', async () => {
    const res = await s.app.inject({ url: '/api/v1/config', headers: { host: 'ml.partner.test' } });
    expect(res.json().branding).toEqual({
      title: 'Partner ML',
      logo_url: null,
      powered_by: 'Orrery',
    });
  });
});
