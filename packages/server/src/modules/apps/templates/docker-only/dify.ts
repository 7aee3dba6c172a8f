import { randomBytes } from 'node:crypto';
import type { AppJob, AppRunner, InstanceContext } from '../../runner.js';
import { appUrl, homeVolume, httpApi, jobSpec, requiresAuth } from '../shared.js';
import { shellQuoted } from './runner.js';
import { jobOrigin } from '../../../jobs/ingress-host.js';

export const DIFY_VERSION = '1.0.0';
const API_IMAGE = `langgenius/dify-api:${DIFY_VERSION}`;
const WEB_IMAGE = `langgenius/dify-web:${DIFY_VERSION}`;
const REDIS_IMAGE = 'redis:7.4-alpine';
const API_PORT = 5001;
const WEB_PORT = 3000;
const REDIS_PORT = 6379;
/** Uploaded files: the instance's home, shared by the API and the worker. */
const STORAGE = '/app/api/storage';

type Input = Record<string, unknown>;
const obj = (v: unknown) => (v && typeof v === 'object' ? (v as Input) : {});

/** The project secrets of an instance, generated at install and kept across revisions. */
export const difySecretKeys = (ctx: Pick<InstanceContext, 'name'>) => ({
  secretKey: `app-${ctx.name}-dify-secret-key`,
  redisPassword: `app-${ctx.name}-dify-redis-password`,
  initPassword: `app-${ctx.name}-dify-init-password`,
});

/** The key of the initial admin password: the input's secret, else the generated one. */
function initPasswordKey(input: Input, ctx: Pick<InstanceContext, 'name'>): string {
  const given = obj(obj(input.dify_specific).init_password).key;
  return typeof given === 'string' && given ? given : difySecretKeys(ctx).initPassword;
}

/**
 * What the API server and the worker share: the PostgreSQL user of the input (an integration),
 * the instance's Redis, the files in the home. Secrets only through `secret_env`.
 */
function backend(input: Input, ctx: InstanceContext, mode: 'api' | 'worker') {
  const pg = obj(input.postgres_user);
  const keys = difySecretKeys(ctx);
  const pgPassword = obj(pg.password).key;
  // Celery's broker URL carries the Redis password, which only the job's env holds: the shell
  // makes it before Dify's own entrypoint starts. For the API the same goes for its public URL,
  // the origin of its own host, named by its host name (the job id).
  const [scheme, domain] = jobOrigin(ctx, '\0').split('\0');
  const self = `${shellQuoted(scheme!)}"$HOSTNAME"${shellQuoted(domain!)}`;
  const urls =
    mode === 'api' ? ['CONSOLE_API_URL', 'SERVICE_API_URL', 'APP_API_URL', 'FILES_URL'] : [];
  const entrypoint = [
    'export CELERY_BROKER_URL="redis://:$REDIS_PASSWORD@$REDIS_HOST:$REDIS_PORT/1"',
    ...urls.map((name) => `export ${name}=${self}`),
    'exec /bin/bash /entrypoint.sh',
  ].join('; ');
  return jobSpec({
    image: API_IMAGE,
    entrypoint,
    preset_name: ctx.preset.name,
    env: {
      MODE: mode,
      MIGRATION_ENABLED: mode === 'api' ? 'true' : 'false',
      DB_USERNAME: String(pg.user ?? ''),
      DB_HOST: String(pg.host ?? ''),
      DB_PORT: String(pg.port ?? 5432),
      DB_DATABASE: String(pg.dbname ?? 'dify'),
      REDIS_PORT: String(REDIS_PORT),
      REDIS_DB: '0',
      STORAGE_TYPE: 'opendal',
      OPENDAL_SCHEME: 'fs',
      OPENDAL_FS_ROOT: STORAGE,
    },
    secret_env: {
      SECRET_KEY: `secret:${keys.secretKey}`,
      REDIS_PASSWORD: `secret:${keys.redisPassword}`,
      ...(typeof pgPassword === 'string' ? { DB_PASSWORD: `secret:${pgPassword}` } : {}),
      ...(mode === 'api' ? { INIT_PASSWORD: `secret:${initPasswordKey(input, ctx)}` } : {}),
    },
    volumes: [homeVolume(ctx, STORAGE)],
    // Open at the ingress: the web's page calls it from the browser, at the API's own host
    // (cross-origin, which Dify's CORS defaults allow), without any Orrery cookie. Dify
    // authenticates these calls itself (a console sign-in, app API keys on /v1).
    ...(mode === 'api'
      ? { http: { port: API_PORT, health_check_path: '/health', requires_auth: false } }
      : {}),
    restart_policy: 'never',
  });
}

/**
 * `dify`: the jobs of Dify's own compose file that make a usable app: Redis (cache and Celery
 * broker, password generated), the API server (migrations on start), the worker (Celery) and
 * the web console, which is the served app. PostgreSQL is an integration, as in Apolo's
 * template: a user of a `postgresql` app. Jobs reach each other through their relays, whose
 * addresses and ports the apps service fills in (`siblingEnv`) as the jobs are created in this
 * order.
 */
export const difyRunner: AppRunner = {
  template: 'dify',
  // Not kubernetes: its jobs get each other's addresses as they are created, and the kubernetes
  // driver knows a job's address (its Service's port) only once the Pod exists (docs/runtimes.md).
  runtimes: ['docker'],
  plan(input, ctx) {
    const keys = difySecretKeys(ctx);
    const redisHost = {
      REDIS_HOST: { role: 'redis', as: 'host' as const },
      REDIS_PORT: { role: 'redis', as: 'port' as const },
    };
    const redis: AppJob = {
      role: 'redis',
      body: jobSpec({
        image: REDIS_IMAGE,
        // The image's entrypoint, run by the shell (exec: it stays PID 1) for the password in
        // the job's env.
        entrypoint: 'exec docker-entrypoint.sh',
        command: 'redis-server --requirepass "$REDIS_PASSWORD" --save "" --appendonly no',
        preset_name: ctx.preset.name,
        secret_env: { REDIS_PASSWORD: `secret:${keys.redisPassword}` },
        // Not HTTP: the port is declared so that the API and the worker have a relay to reach.
        http: { port: REDIS_PORT, requires_auth: true },
        restart_policy: 'never',
      }),
    };
    const web: AppJob = {
      role: 'web',
      body: jobSpec({
        image: WEB_IMAGE,
        preset_name: ctx.preset.name,
        env: { NEXT_TELEMETRY_DISABLED: '1' },
        http: { port: WEB_PORT, health_check_path: '/', requires_auth: requiresAuth(input) },
        restart_policy: 'never',
      }),
      // The browser calls the API at its own host; the web is served at the root of its own.
      siblingEnv: {
        CONSOLE_API_URL: { role: 'api', as: 'url' },
        APP_API_URL: { role: 'api', as: 'url' },
      },
    };
    const secrets: Record<string, string> = {
      [keys.secretKey]: randomBytes(42).toString('base64'),
      [keys.redisPassword]: randomBytes(24).toString('base64url'),
    };
    // Dify takes at most 30 characters; a password of the user's own wins.
    if (initPasswordKey(input, ctx) === keys.initPassword) {
      secrets[keys.initPassword] = randomBytes(15).toString('base64url');
    }
    return {
      jobs: [
        redis,
        { role: 'api', body: backend(input, ctx, 'api'), siblingEnv: redisHost },
        { role: 'worker', body: backend(input, ctx, 'worker'), siblingEnv: redisHost },
        web,
      ],
      // Usable once the API answers: it runs the migrations before it listens.
      health: { role: 'api', path: '/health' },
      secrets,
    };
  },
  outputs(input, ctx) {
    const api = ctx.endpoints.api;
    return {
      app_url: appUrl(ctx.endpoints.web),
      api_url: {
        internal_url: api ? httpApi(api, 'internal', '/v1', 'rest') : null,
        external_url: api ? httpApi(api, 'external', '/v1', 'rest') : null,
      },
      dify_specific: {
        init_password: { key: initPasswordKey(input, ctx), __type__: 'ApoloSecret' },
      },
    };
  },
};
