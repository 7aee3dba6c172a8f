import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { JobCreateFromPreset } from '@orrery/contract';
import { describe, expect, it } from 'vitest';
import type { JobRow } from '../../../jobs/store.js';
import { validateInput } from '../../input-schema.js';
import { siblingEnvOf } from '../../outputs.js';
import type { AppJob, OutputContext } from '../../runner.js';
import { difyRunner } from './dify.js';
import { difyInput, planContext } from '../../../../test/app-plans.js';

const SCHEMA = '../dify/1.0.0/input.schema.json';

const ctx = planContext({ home: 'storage:.apps/dify/demo' });
const input = difyInput('app-pg-postgres-dify-password');

type Api = Record<string, unknown> | null;
type Outputs = Record<string, { internal_url: Api; external_url: Api }> & {
  dify_specific: unknown;
};

/** A created job as the apps service hands it to `siblingEnvOf`: an id and an HTTP port. */
const created = (id: string, port: number) =>
  ({
    id,
    orgName: 'acme',
    projectName: 'vision',
    container: { http: { port } },
  }) as unknown as JobRow;

/** What `sh -c` makes of a job's entrypoint and command, with Dify's own program replaced. */
function shell(job: AppJob, env: Record<string, string>, replace: [string, string]) {
  const line = [job.body.entrypoint, job.body.command].filter(Boolean).join(' ');
  expect(line).toContain(replace[0]);
  return execFileSync('/bin/sh', ['-c', line.replace(...replace)], { env })
    .toString()
    .trimEnd()
    .split('\n');
}

describe('dify template', () => {
  it('takes a PostgreSQL user and, optionally, an initial password; Redis is its own', () => {
    const schema = JSON.parse(
      readFileSync(fileURLToPath(new URL(SCHEMA, import.meta.url)), 'utf8'),
    ) as Record<string, unknown>;
    expect(validateInput(schema, input)).toEqual([]);
    expect(validateInput(schema, { preset: { name: 'cpu-small' } })).toEqual([
      { path: ['postgres_user'], message: "must have required property 'postgres_user'" },
    ]);
  });

  it('runs Redis, the API, the worker and the web console, wired by host name', async () => {
    const plan = await difyRunner.plan(input, ctx);
    const roles = Object.fromEntries(plan.jobs.map((j) => [j.role, j]));
    expect(plan.jobs.map((j) => [j.role, j.body.image])).toEqual([
      ['redis', 'redis:7.4-alpine'],
      ['api', 'langgenius/dify-api:1.0.0'],
      ['worker', 'langgenius/dify-api:1.0.0'],
      ['web', 'langgenius/dify-web:1.0.0'],
    ]);
    for (const { body } of plan.jobs) {
      const wire = JobCreateFromPreset.safeParse({
        ...body,
        org_name: 'acme',
        project_name: 'vision',
      });
      expect(wire.success, JSON.stringify(wire.error?.issues)).toBe(true);
      expect(body.preset_name).toBe('cpu-small');
    }
    expect(plan.health).toEqual({ role: 'api', path: '/health' });
    expect(roles.web.body.http).toMatchObject({ port: 3000, requires_auth: true });
    // The browser calls the API with no ingress cookie of its job: Dify authenticates it.
    expect(roles.api.body.http).toMatchObject({
      port: 5001,
      health_check_path: '/health',
      requires_auth: false,
    });
    expect(roles.worker.body.http).toBeUndefined();
    expect(roles.api.body.env).toMatchObject({
      MODE: 'api',
      MIGRATION_ENABLED: 'true',
      DB_HOST: 'job-9.acme--vision',
      DB_USERNAME: 'dify',
      DB_DATABASE: 'dify',
      OPENDAL_FS_ROOT: '/app/api/storage',
    });
    expect(roles.worker.body.env).toMatchObject({ MODE: 'worker', MIGRATION_ENABLED: 'false' });
    // Uploaded files: the API and the worker share the instance's home.
    for (const role of ['api', 'worker'])
      expect(roles[role].body.volumes).toEqual([
        { src_storage_uri: ctx.home, dst_path: '/app/api/storage', read_only: false },
      ]);

    // The service fills the siblings' addresses in as it creates the jobs in plan order.
    const byRole = new Map([
      ['redis', created('job-r', 6379)],
      ['api', created('job-a', 5001)],
    ]);
    // Redis through its relay, on the bridge's gateway (runtime/docker/relay.ts).
    const reach = new Map([['redis', { host: '172.18.0.1', port: 40123 }]]);
    for (const role of ['api', 'worker'])
      expect(siblingEnvOf(roles[role], byRole, ctx, reach)).toEqual({
        REDIS_HOST: '172.18.0.1',
        REDIS_PORT: '40123',
      });
    expect(siblingEnvOf(roles.web, byRole, ctx)).toEqual({
      CONSOLE_API_URL: 'https://job-a.jobs.orrery.example',
      APP_API_URL: 'https://job-a.jobs.orrery.example',
    });
    expect(() => siblingEnvOf(roles.web, new Map(), ctx)).toThrow(/needs api/);

    // The broker URL and the API's own URL are made in the job's shell from its env.
    const env = {
      REDIS_PASSWORD: 'pw',
      REDIS_HOST: '172.18.0.1',
      REDIS_PORT: '40123',
      HOSTNAME: 'job-a',
    };
    const api = shell(roles.api, env, ['exec /bin/bash /entrypoint.sh', 'env']);
    expect(api).toContain('CELERY_BROKER_URL=redis://:pw@172.18.0.1:40123/1');
    for (const name of ['CONSOLE_API_URL', 'SERVICE_API_URL', 'APP_API_URL', 'FILES_URL'])
      expect(api).toContain(`${name}=https://job-a.jobs.orrery.example`);
    const worker = shell(roles.worker, env, ['exec /bin/bash /entrypoint.sh', 'env']);
    expect(worker).toContain('CELERY_BROKER_URL=redis://:pw@172.18.0.1:40123/1');
    expect(worker.some((l) => l.startsWith('CONSOLE_API_URL='))).toBe(false);
    expect(shell(roles.redis, env, ['docker-entrypoint.sh', "printf '%s\\n'"])).toEqual([
      'redis-server',
      '--requirepass',
      'pw',
      '--save',
      '',
      '--appendonly',
      'no',
    ]);
  });

  it('generates its secrets as project secrets, never in plain env', async () => {
    const plan = await difyRunner.plan(input, ctx);
    const secrets = plan.secrets!;
    expect(Object.keys(secrets).sort()).toEqual([
      'app-demo-dify-init-password',
      'app-demo-dify-redis-password',
      'app-demo-dify-secret-key',
    ]);
    expect(secrets['app-demo-dify-init-password'].length).toBeLessThanOrEqual(30);
    // A new plan (a reinstall, a configure) generates other values; the service keeps the first.
    expect((await difyRunner.plan(input, ctx)).secrets).not.toEqual(secrets);

    const plain = JSON.stringify(
      plan.jobs.map((j) => [j.body.env, j.body.command, j.body.entrypoint]),
    );
    for (const value of Object.values(secrets)) expect(plain).not.toContain(value);
    const secretEnv = Object.fromEntries(plan.jobs.map((j) => [j.role, j.body.secret_env]));
    expect(secretEnv.redis).toEqual({ REDIS_PASSWORD: 'secret:app-demo-dify-redis-password' });
    expect(secretEnv.api).toEqual({
      SECRET_KEY: 'secret:app-demo-dify-secret-key',
      REDIS_PASSWORD: 'secret:app-demo-dify-redis-password',
      DB_PASSWORD: 'secret:app-pg-postgres-dify-password',
      INIT_PASSWORD: 'secret:app-demo-dify-init-password',
    });
    expect(secretEnv.worker).toEqual({
      SECRET_KEY: 'secret:app-demo-dify-secret-key',
      REDIS_PASSWORD: 'secret:app-demo-dify-redis-password',
      DB_PASSWORD: 'secret:app-pg-postgres-dify-password',
    });
    expect(secretEnv.web).toEqual({});

    // A password of the user's own is used as it is, and none is generated.
    const own = { ...input, dify_specific: { init_password: { key: 'my-dify-init' } } };
    const ownPlan = await difyRunner.plan(own, ctx);
    expect(ownPlan.secrets).not.toHaveProperty('app-demo-dify-init-password');
    expect(ownPlan.jobs[1].body.secret_env.INIT_PASSWORD).toBe('secret:my-dify-init');
  });

  it('serves the web console as the app, the API beside it', () => {
    const e = (id: string, port: number) => ({
      internal: { host: `${id}.acme--vision`, port, protocol: 'http' as const },
      external: {
        host: `${id}.jobs.orrery.example`,
        port: 443,
        protocol: 'https' as const,
        basePath: '/',
      },
    });
    const running: OutputContext = {
      ...ctx,
      endpoints: { web: e('job-w', 3000), api: e('job-a', 5001), redis: e('job-r', 6379) },
    };
    const out = difyRunner.outputs(input, running) as Outputs;
    // The web console at the root of its own host: its scripts load from /_next/.
    expect(out.app_url.external_url).toMatchObject({
      host: 'job-w.jobs.orrery.example',
      base_path: '/',
      api_type: 'webapp',
    });
    expect(out.app_url.internal_url).toMatchObject({ host: 'job-w.acme--vision', port: 3000 });
    expect(out.api_url.internal_url).toMatchObject({
      host: 'job-a.acme--vision',
      port: 5001,
      base_path: '/v1',
    });
    expect(out.api_url.external_url).toMatchObject({
      host: 'job-a.jobs.orrery.example',
      base_path: '/v1',
      api_type: 'rest',
    });
    expect(out.dify_specific).toEqual({
      init_password: { key: 'app-demo-dify-init-password', __type__: 'ApoloSecret' },
    });
    const waiting = difyRunner.outputs(input, { ...ctx, endpoints: {} }) as Outputs;
    expect(waiting.app_url).toEqual({ internal_url: null, external_url: null });
  });
});
