import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.js';

describe('configuration', () => {
  it('has the embedded defaults', () => {
    const c = loadConfig({});
    expect(c.port).toBe(8080);
    expect(c.host).toBe('127.0.0.1');
    expect(c.dataDir).toMatch(/\.orrery$/);
    expect(c.databaseUrl).toBeUndefined();
    expect(c.oidc).toEqual({
      external: false,
      issuer: 'http://127.0.0.1:8080/oidc',
      clientId: 'orrery-console',
      audience: 'http://127.0.0.1:8080',
    });
  });

  it('refuses the embedded database inside the Slurm shared directory, naming DATABASE_URL', () => {
    const slurm = { ORRERY_RUNTIME: 'slurm', ORRERY_SLURM_SHARED_DIR: '/srv/shared' };
    for (const dir of ['/srv/shared', '/srv/shared/orrery', '/srv/shared/../shared/x']) {
      const env = { ...slurm, ORRERY_DATA_DIR: dir };
      expect(() => loadConfig(env)).toThrow(ConfigError);
      expect(() => loadConfig(env)).toThrow(/embedded database .* DATABASE_URL/);
    }
    // PostgreSQL, or a data directory off the share, or another runtime: nothing to refuse.
    const pg = 'postgres://orrery@db/orrery';
    expect(
      loadConfig({ ...slurm, ORRERY_DATA_DIR: '/srv/shared/o', DATABASE_URL: pg }),
    ).toBeTruthy();
    expect(loadConfig({ ...slurm, ORRERY_DATA_DIR: '/srv/shared-not' })).toBeTruthy();
    expect(
      loadConfig({ ...slurm, ORRERY_RUNTIME: 'process', ORRERY_DATA_DIR: '/srv/shared' }),
    ).toBeTruthy();
  });

  it.each([
    [{ PORT: 'eighty' }, 'PORT'],
    [{ DATABASE_URL: 'mysql://x' }, 'DATABASE_URL'],
    [{ SMTP_URL: 'http://mail' }, 'SMTP_URL'],
    [{ ORRERY_ADMIN_EMAIL: 'nope' }, 'ORRERY_ADMIN_EMAIL'],
    [{ ORRERY_WHITE_LABELS: '{bad json' }, 'ORRERY_WHITE_LABELS'],
    [{ OIDC_ISSUER: 'https://id.example.test' }, 'OIDC_CLIENT_ID'],
    [{ ORRERY_INVITE_TTL: 'a week' }, 'ORRERY_INVITE_TTL'],
    [{ ORRERY_INVITE_TTL: '0d' }, 'ORRERY_INVITE_TTL'],
    [{ ORRERY_JOB_STATUS_RECHECK: 'soon' }, 'ORRERY_JOB_STATUS_RECHECK'],
    [{ ORRERY_UNSANDBOXED_JOBS: 'yes' }, 'ORRERY_UNSANDBOXED_JOBS'],
    [{ ORRERY_GPU_DESCRIPTION: '{"nvidia":{"count":-1}}' }, 'ORRERY_GPU_DESCRIPTION'],
    [{ ORRERY_GPU_DESCRIPTION: '/nonexistent/gpus.json' }, 'ORRERY_GPU_DESCRIPTION'],
    [{ ORRERY_TRUSTED_PROXIES: '10.0.0.1,proxy.local' }, 'ORRERY_TRUSTED_PROXIES'],
    [{ ORRERY_TRUSTED_PROXIES: '10.0.0.0/33' }, 'ORRERY_TRUSTED_PROXIES'],
    [{ ORRERY_SIGNIN_WINDOW: '0m' }, 'ORRERY_SIGNIN_WINDOW'],
    [{ ORRERY_INGRESS_DOMAIN: 'https://jobs.example.com' }, 'ORRERY_INGRESS_DOMAIN'],
    [{ ORRERY_INGRESS_DOMAIN: 'jobs.example.com:8443' }, 'ORRERY_INGRESS_DOMAIN'],
    // The console's own host under the jobs' domain would be routed to a job.
    [
      {
        ORRERY_PUBLIC_URL: 'https://orrery.jobs.example.com',
        ORRERY_INGRESS_DOMAIN: 'jobs.example.com',
      },
      'ORRERY_INGRESS_DOMAIN',
    ],
  ])('stops on a bad value and names the variable: %j', (env, name) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(name);
  });

  it('probes the GPUs unless ORRERY_GPU_DESCRIPTION describes them (a stand-in for the probe)', () => {
    expect(loadConfig({}).runtime.gpus).toBeUndefined();
    const described = '{"nvidia":{"count":2,"model":"A100"},"amd":{"count":0}}';
    expect(loadConfig({ ORRERY_GPU_DESCRIPTION: described }).runtime.gpus).toEqual({
      nvidia: { count: 2, model: 'A100' },
    });
  });

  it('refuses unsandboxed jobs unless ORRERY_UNSANDBOXED_JOBS=allow', () => {
    expect(loadConfig({}).runtime.unsandboxedJobs).toBe('refuse');
    expect(loadConfig({ ORRERY_UNSANDBOXED_JOBS: 'allow' }).runtime.unsandboxedJobs).toBe('allow');
  });

  it('serves jobs under jobs.localhost unless ORRERY_INGRESS_DOMAIN says otherwise', () => {
    expect(loadConfig({}).ingressDomain).toBe('jobs.localhost');
    expect(loadConfig({ ORRERY_INGRESS_DOMAIN: 'Jobs.Example.COM' }).ingressDomain).toBe(
      'jobs.example.com',
    );
  });

  it('keeps invitations open 7 days unless ORRERY_INVITE_TTL says otherwise', () => {
    expect(loadConfig({}).inviteTtlSeconds).toBe(7 * 86400);
    expect(loadConfig({ ORRERY_INVITE_TTL: '36h' }).inviteTtlSeconds).toBe(36 * 3600);
    expect(loadConfig({ ORRERY_INVITE_TTL: '90' }).inviteTtlSeconds).toBe(90);
  });

  it('rechecks a followed job status every 30 s unless ORRERY_JOB_STATUS_RECHECK says otherwise', () => {
    expect(loadConfig({}).jobStatusRecheckSeconds).toBe(30);
    expect(loadConfig({ ORRERY_JOB_STATUS_RECHECK: '1d' }).jobStatusRecheckSeconds).toBe(86400);
  });

  it('trusts no proxy and limits sign-ins to 10 per account, 50 per address in 15 minutes by default', () => {
    const c = loadConfig({});
    expect(c.trustedProxies).toEqual([]);
    expect(c.signInLimits).toEqual({ perAccount: 10, perAddress: 50, windowMs: 15 * 60_000 });
    const set = loadConfig({ ORRERY_TRUSTED_PROXIES: ' 10.0.0.5, fd00::/8 ,192.168.0.0/16' });
    expect(set.trustedProxies).toEqual(['10.0.0.5', 'fd00::/8', '192.168.0.0/16']);
  });

  it('uses an external issuer when one is configured', () => {
    const c = loadConfig({
      OIDC_ISSUER: 'https://id.example.test/realms/ml/',
      OIDC_CLIENT_ID: 'console',
    });
    expect(c.oidc).toMatchObject({
      external: true,
      issuer: 'https://id.example.test/realms/ml',
      clientId: 'console',
    });
  });
});
