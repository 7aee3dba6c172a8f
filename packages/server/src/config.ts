import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { isIP } from 'node:net';
import { z } from 'zod';
import { isAddressOrCidr } from './net/trusted-proxies.js';
import { parseGpuDescription, type MachineGpus } from './runtime/gpus.js';
import { KUBE_ENV, kubeOptions, type KubeOptions } from './runtime/kubernetes/options.js';
import {
  SLURM_ENV,
  sharedDatabaseRefusal,
  slurmOptions,
  type SlurmOptions,
} from './runtime/slurm/options.js';

const WhiteLabel = z.object({
  title: z.string().min(1),
  logo_url: z.string().url().nullable().default(null),
  powered_by: z.string().min(1).nullable().default(null),
});

const optionalUrl = z
  .string()
  .url()
  .optional()
  .transform((v) => v?.replace(/\/$/, ''));

/** A duration in seconds: a number, or one with s, m, h or d. */
const duration = (fallback: string) =>
  z
    .string()
    .regex(/^\d+[smhd]?$/, 'must be a duration: seconds, or a number with s, m, h or d (e.g. 7d)')
    .default(fallback)
    .transform((v) => {
      const unit = { s: 1, m: 60, h: 3600, d: 86400 }[v.slice(-1)] ?? 1;
      return parseInt(v, 10) * unit;
    })
    .refine((v) => v > 0, 'must be longer than 0');

/** Every variable the server reads, with its default. The README's configuration table lists these. */
const Env = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  HOST: z.string().min(1).default('127.0.0.1'),
  ORRERY_DATA_DIR: z.string().min(1).default('./.orrery'),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// or postgresql:// URL')
    .optional(),
  ORRERY_PUBLIC_URL: optionalUrl,
  ORRERY_INGRESS_DOMAIN: z
    .string()
    .toLowerCase()
    .regex(
      /^(?=.{1,200}$)[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)*$/,
      'must be a DNS name such as jobs.example.com (no scheme, port or path)',
    )
    .default('jobs.localhost'),
  ORRERY_ADMIN_EMAIL: z.string().email().default('admin@orrery.local'),
  ORRERY_ADMIN_PASSWORD: z.string().min(8).optional(),
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\//, 'must be an smtp:// or smtps:// URL')
    .optional(),
  ORRERY_MAIL_FROM: z.string().min(3).default('Orrery <no-reply@orrery.local>'),
  OIDC_ISSUER: optionalUrl,
  OIDC_CLIENT_ID: z.string().min(1).optional(),
  OIDC_AUDIENCE: z.string().min(1).optional(),
  ORRERY_SUPPORT_EMAIL: z.string().email().optional(),
  ORRERY_TERMS_URL: optionalUrl,
  ORRERY_TITLE: z.string().min(1).default('Orrery'),
  ORRERY_LOGO_URL: z.string().url().optional(),
  ORRERY_WHITE_LABELS: z
    .string()
    .optional()
    .transform((v, ctx) => {
      if (!v) return {};
      try {
        return z.record(z.string(), WhiteLabel).parse(JSON.parse(v));
      } catch (e) {
        ctx.addIssue({
          code: 'custom',
          message: `must be JSON {"hostname": {"title", "logo_url"?, "powered_by"?}} (${(e as Error).message.split('\n')[0]})`,
        });
        return z.NEVER;
      }
    }),
  ORRERY_SECRETS_KEY: z
    .string()
    .regex(
      /^(?:[0-9a-fA-F]{64}|[A-Za-z0-9+/]{43}=?)$/,
      'must be 64 hex characters or base64 of 32 bytes',
    )
    .optional(),
  ORRERY_REGISTRY_URL: optionalUrl,
  ORRERY_S3_ENDPOINT: optionalUrl,
  ORRERY_S3_REGION: z.string().min(1).default('us-east-1'),
  ORRERY_S3_ACCESS_KEY_ID: z.string().min(1).optional(),
  ORRERY_S3_SECRET_ACCESS_KEY: z.string().min(1).optional(),
  ORRERY_S3_STORAGE_BUCKET: z
    .string()
    .regex(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, 'must be an S3 bucket name (3-63 a-z, 0-9, ., -)')
    .optional(),
  ORRERY_S3_SHARE_KEYS: z
    .string()
    .regex(/^(true|false|1|0)$/i, 'must be true or false')
    .default('false')
    .transform((v) => /^(true|1)$/i.test(v)),
  ORRERY_S3_FORCE_PATH_STYLE: z
    .string()
    .regex(/^(true|false|1|0)$/i, 'must be true or false')
    .default('true')
    .transform((v) => /^(true|1)$/i.test(v)),
  ORRERY_RUNTIME: z.enum(['auto', 'process', 'docker', 'kubernetes', 'slurm']).default('auto'),
  ORRERY_UNSANDBOXED_JOBS: z.enum(['refuse', 'allow']).default('refuse'),
  ORRERY_GPU_DESCRIPTION: z
    .string()
    .optional()
    .transform((v, ctx) => {
      if (!v) return undefined;
      try {
        return parseGpuDescription(v);
      } catch (e) {
        ctx.addIssue({ code: 'custom', message: (e as Error).message });
        return z.NEVER;
      }
    }),
  ...KUBE_ENV,
  ...SLURM_ENV,
  DOCKER_HOST: z
    .string()
    .regex(/^(unix|tcp|http|https):\/\//, 'must be a unix://, tcp://, http:// or https:// URL')
    .optional(),
  ORRERY_DOCKER_NETWORK: z.string().min(1).optional(),
  ORRERY_KILL_GRACE_SECONDS: z.coerce.number().min(0).max(3600).default(10),
  ORRERY_ASSISTANT_QUESTIONS_PER_MINUTE: z.coerce.number().int().min(1).max(1_000_000).default(20),
  ORRERY_FLOW_MAX_BAKE_TASKS: z.coerce.number().int().min(1).max(1_000_000).default(1000),
  ORRERY_FLOW_MAX_MATRIX: z.coerce.number().int().min(1).max(1_000_000).default(1000),
  ORRERY_INVITE_TTL: duration('7d'),
  ORRERY_BUDGET_CHECK_INTERVAL: duration('1m'),
  ORRERY_JOB_STATUS_RECHECK: duration('30s'),
  ORRERY_FAIR_SHARE_HALF_LIFE: duration('1d'),
  ORRERY_STARVATION_WAIT: duration('30m'),
  ORRERY_TRUSTED_PROXIES: z
    .string()
    .default('')
    .transform((v, ctx) => {
      const list = v
        .split(',')
        .map((a) => a.trim())
        .filter(Boolean);
      const bad = list.find((a) => !isAddressOrCidr(a));
      if (bad) {
        ctx.addIssue({
          code: 'custom',
          message: `must be IP addresses or CIDR ranges, comma-separated ("${bad}" is neither)`,
        });
        return z.NEVER;
      }
      return list;
    }),
  ORRERY_SIGNIN_FAILURES_PER_ACCOUNT: z.coerce.number().int().min(1).max(1_000_000).default(10),
  ORRERY_SIGNIN_FAILURES_PER_ADDRESS: z.coerce.number().int().min(1).max(1_000_000).default(50),
  ORRERY_SIGNIN_WINDOW: duration('15m'),
  ORRERY_CONFIG_FILE: z.string().optional(),
  ORRERY_APP_TEMPLATES_DIR: z.string().min(1).optional(),
  ORRERY_PAYMENTS: z.enum(['stripe', 'test', 'off']).optional(),
  STRIPE_SECRET_KEY: z.string().min(1).optional(),
  STRIPE_WEBHOOK_SECRET: z.string().min(1).optional(),
  ORRERY_STRIPE_API_URL: optionalUrl,
  ORRERY_ASSISTANT_LLM_URL: optionalUrl,
  ORRERY_ASSISTANT_LLM_API_KEY: z.string().min(1).optional(),
  ORRERY_ASSISTANT_LLM_MODEL: z.string().min(1).optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
});

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl?: string;
  publicUrl: string;
  /**
   * The domain under which every job is served at a host of its own, `<job id>.<domain>` (and
   * `<name>--<project>--<org>.<domain>`), never on the console's origin (docs/operations.md).
   */
  ingressDomain: string;
  adminEmail: string;
  adminPassword?: string;
  smtpUrl?: string;
  mailFrom: string;
  /** External OIDC issuer; when unset the embedded provider at `${publicUrl}/oidc` is used. */
  oidc: { external: boolean; issuer: string; clientId: string; audience: string };
  supportEmail: string | null;
  /** The Terms of Use the console links to: the operator's, or the ones shipped in docs/. */
  termsUrl: string;
  branding: {
    title: string;
    logoUrl: string | null;
    whiteLabels: Record<string, z.infer<typeof WhiteLabel>>;
  };
  logLevel: z.infer<typeof Env>['LOG_LEVEL'];
  /** An operator's app templates (`<name>/<version>/manifest.yaml`), beside the built-in ones. */
  appTemplatesDir?: string;
  /** How long an invitation to an organization stays open, in seconds. */
  inviteTtlSeconds: number;
  /** How often budgets are compared with the month's spending and their alerts mailed. */
  budgetCheckMs: number;
  /**
   * How often a socket following a job's status reads it again without an event, in seconds:
   * events of any replica wake it at once; this bounds the wait for one lost with a connection.
   */
  jobStatusRecheckSeconds: number;
  /**
   * The scheduler (docs/scheduling.md): how fast past use fades in the fair share, and how long a
   * job waits before it reserves a node for itself, both in milliseconds.
   */
  scheduler: { halfLifeMs: number; starvationMs: number };
  /**
   * The reverse proxies (addresses and CIDR ranges) whose X-Forwarded-For, -Proto and -Host are
   * believed; empty: none, the connection's own address is the client's (docs/operations.md).
   */
  trustedProxies: string[];
  /** Failed sign-ins (and sign-up "taken" answers) allowed per window (docs/operations.md). */
  signInLimits: { perAccount: number; perAddress: number; windowMs: number };
  /** Questions one user may ask the assistant a minute, per replica (docs/assistant.md). */
  assistantQuestionsPerMinute: number;
  /**
   * The most tasks one bake of Orrery's engine may have, and the most combinations one task's
   * matrix may make (docs/flows.md): a bake beyond them is refused before anything is recorded.
   */
  flows: { maxBakeTasks: number; maxMatrix: number };
  /** Key sealing secret values (hex or base64 of 32 bytes); unset: `<dataDir>/secrets.key`. */
  secretsKey?: string;
  /** An external OCI registry behind `/v2/`; unset: Debian's docker-registry, supervised. */
  registryUrl?: string;
  /** An S3-compatible endpoint (ORRERY_S3_*): buckets live there, and files too with a bucket. */
  s3?: {
    endpoint: string;
    region: string;
    accessKeyId: string;
    secretAccessKey: string;
    storageBucket?: string;
    forcePathStyle: boolean;
    /**
     * Whether bucket credentials may carry the endpoint's own key pair. That pair opens every
     * bucket on the endpoint, other tenants' included, so only a single-tenant deployment may.
     */
    shareKeys: boolean;
  };
  /** Where jobs run (runtime/select.ts): `auto` is docker when an engine answers, else process. */
  runtime: {
    kind: 'auto' | 'process' | 'docker' | 'kubernetes' | 'slurm';
    /** The kubernetes runtime's settings (ORRERY_KUBE_*, runtime/kubernetes/options.ts). */
    kube: KubeOptions;
    /** The slurm runtime's settings (ORRERY_SLURM_*, runtime/slurm/options.ts), checked on use. */
    slurm: Partial<SlurmOptions> & { api: SlurmOptions['api'] };
    /** The Docker engine's address; unset: /var/run/docker.sock. */
    dockerHost?: string;
    /** The network job containers join; unset: `bridge`, or a network `orrery` made without one. */
    dockerNetwork?: string;
    /** How long a killed job has between SIGTERM and SIGKILL. */
    killGraceMs: number;
    /**
     * Whether the process runtime runs jobs without its full sandbox (no bubblewrap, or a server
     * that is not root): `refuse` (the default) refuses them, `allow` runs them, never as root,
     * for a one-person machine (docs/runtimes.md).
     */
    unsandboxedJobs: 'refuse' | 'allow';
    /**
     * ORRERY_GPU_DESCRIPTION: this machine's GPUs as the operator states them, a stand-in for
     * the probe (`nvidia-smi`, the device nodes) where it cannot tell, and in tests; unset:
     * probed (runtime/gpus.ts, docs/operations.md).
     */
    gpus?: MachineGpus;
  };
  /** How organizations buy credits (docs/billing.md, Buying credits). */
  payments: Payments;
  /**
   * The assistant's OpenAI-compatible model (docs/assistant.md, With a model): its base URL
   * (`…/v1/chat/completions` is called under it), an optional key, and the model name.
   */
  assistantLlm?: { url: string; apiKey?: string; model?: string };
}

export type PaymentsMode = 'stripe' | 'test' | 'off';
export interface Payments {
  mode: PaymentsMode;
  /** Set in `stripe` mode: the account's keys, and another API address (stripe-mock, tests). */
  stripe?: { secretKey: string; webhookSecret: string; apiUrl?: string };
}

/** A server reachable only from this machine: a person's own, where a test checkout harms no one. */
const isLoopback = (host: string) =>
  host === 'localhost' || host === '::1' || /^127\.\d+\.\d+\.\d+$/.test(host);

/**
 * Stripe when its keys are set; otherwise Orrery's test checkout only on a loopback-only server,
 * so that no manager of a shared installation can grant their organization free credits.
 */
function paymentsOf(e: z.infer<typeof Env>): Payments {
  const keys = [e.STRIPE_SECRET_KEY, e.STRIPE_WEBHOOK_SECRET];
  if (keys.some(Boolean) && !keys.every(Boolean)) {
    throw new ConfigError(
      `Invalid configuration:\n  ${e.STRIPE_SECRET_KEY ? 'STRIPE_WEBHOOK_SECRET' : 'STRIPE_SECRET_KEY'}: must be set together with ${e.STRIPE_SECRET_KEY ? 'STRIPE_SECRET_KEY' : 'STRIPE_WEBHOOK_SECRET'}`,
    );
  }
  const mode =
    e.ORRERY_PAYMENTS ?? (keys.every(Boolean) ? 'stripe' : isLoopback(e.HOST) ? 'test' : 'off');
  if (mode !== 'stripe') return { mode };
  if (!e.STRIPE_SECRET_KEY) {
    throw new ConfigError(
      'Invalid configuration:\n  ORRERY_PAYMENTS: stripe needs STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET',
    );
  }
  return {
    mode,
    stripe: {
      secretKey: e.STRIPE_SECRET_KEY,
      webhookSecret: e.STRIPE_WEBHOOK_SECRET!,
      apiUrl: e.ORRERY_STRIPE_API_URL,
    },
  };
}

export class ConfigError extends Error {}

/**
 * Reads the environment, plus an optional JSON file (ORRERY_CONFIG_FILE) whose keys are the same
 * variable names; the environment wins. A bad value stops the start with a message naming it.
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  let merged: Record<string, unknown> = { ...env };
  if (env.ORRERY_CONFIG_FILE) {
    try {
      const file = JSON.parse(readFileSync(env.ORRERY_CONFIG_FILE, 'utf8')) as Record<
        string,
        unknown
      >;
      const stringified = Object.fromEntries(
        Object.entries(file).map(([k, v]) => [k, typeof v === 'string' ? v : JSON.stringify(v)]),
      );
      merged = { ...stringified, ...env };
    } catch (e) {
      throw new ConfigError(
        `ORRERY_CONFIG_FILE: cannot read ${env.ORRERY_CONFIG_FILE}: ${(e as Error).message}`,
      );
    }
  }
  // Empty variables count as unset, as in most shells' `VAR= cmd`.
  for (const [k, v] of Object.entries(merged)) if (v === '') delete merged[k];
  const parsed = Env.safeParse(merged);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n  ${lines.join('\n  ')}`);
  }
  const e = parsed.data;
  if (!!e.OIDC_ISSUER !== !!e.OIDC_CLIENT_ID) {
    throw new ConfigError(
      'Invalid configuration:\n  OIDC_CLIENT_ID: must be set together with OIDC_ISSUER',
    );
  }
  const s3Keys = [e.ORRERY_S3_ACCESS_KEY_ID, e.ORRERY_S3_SECRET_ACCESS_KEY];
  if (e.ORRERY_S3_ENDPOINT && !s3Keys.every(Boolean)) {
    throw new ConfigError(
      `Invalid configuration:\n  ${e.ORRERY_S3_ACCESS_KEY_ID ? 'ORRERY_S3_SECRET_ACCESS_KEY' : 'ORRERY_S3_ACCESS_KEY_ID'}: must be set together with ORRERY_S3_ENDPOINT`,
    );
  }
  if (!e.ORRERY_S3_ENDPOINT && (e.ORRERY_S3_STORAGE_BUCKET || s3Keys.some(Boolean))) {
    throw new ConfigError(
      `Invalid configuration:\n  ${e.ORRERY_S3_STORAGE_BUCKET ? 'ORRERY_S3_STORAGE_BUCKET' : 'ORRERY_S3_ACCESS_KEY_ID'}: needs ORRERY_S3_ENDPOINT`,
    );
  }
  const shared = sharedDatabaseRefusal(e);
  if (shared) throw new ConfigError(`Invalid configuration:\n  ${shared}`);
  const listenHost = e.HOST === '0.0.0.0' ? '127.0.0.1' : e.HOST;
  // An IPv6 address is bracketed in a URL (`http://[::1]:8080`).
  const urlHost = isIP(listenHost) === 6 ? `[${listenHost}]` : listenHost;
  const publicUrl = e.ORRERY_PUBLIC_URL ?? `http://${urlHost}:${e.PORT}`;
  const consoleHost = new URL(publicUrl).hostname.toLowerCase();
  const domain = e.ORRERY_INGRESS_DOMAIN;
  if (consoleHost === domain || consoleHost.endsWith(`.${domain}`)) {
    // The console's host would be routed to a job: jobs must never share its origin.
    throw new ConfigError(
      `Invalid configuration:\n  ORRERY_INGRESS_DOMAIN: must not contain the public URL's host (${consoleHost})`,
    );
  }
  return {
    port: e.PORT,
    host: e.HOST,
    dataDir: resolve(e.ORRERY_DATA_DIR),
    databaseUrl: e.DATABASE_URL,
    publicUrl,
    ingressDomain: e.ORRERY_INGRESS_DOMAIN,
    adminEmail: e.ORRERY_ADMIN_EMAIL,
    adminPassword: e.ORRERY_ADMIN_PASSWORD,
    smtpUrl: e.SMTP_URL,
    mailFrom: e.ORRERY_MAIL_FROM,
    oidc: e.OIDC_ISSUER
      ? {
          external: true,
          issuer: e.OIDC_ISSUER,
          clientId: e.OIDC_CLIENT_ID!,
          audience: e.OIDC_AUDIENCE ?? publicUrl,
        }
      : {
          external: false,
          issuer: `${publicUrl}/oidc`,
          clientId: 'orrery-console',
          audience: e.OIDC_AUDIENCE ?? publicUrl,
        },
    supportEmail: e.ORRERY_SUPPORT_EMAIL ?? null,
    termsUrl: e.ORRERY_TERMS_URL ?? '/docs/terms.md',
    branding: {
      title: e.ORRERY_TITLE,
      logoUrl: e.ORRERY_LOGO_URL ?? null,
      whiteLabels: e.ORRERY_WHITE_LABELS,
    },
    logLevel: e.LOG_LEVEL,
    inviteTtlSeconds: e.ORRERY_INVITE_TTL,
    budgetCheckMs: e.ORRERY_BUDGET_CHECK_INTERVAL * 1000,
    jobStatusRecheckSeconds: e.ORRERY_JOB_STATUS_RECHECK,
    scheduler: {
      halfLifeMs: e.ORRERY_FAIR_SHARE_HALF_LIFE * 1000,
      starvationMs: e.ORRERY_STARVATION_WAIT * 1000,
    },
    trustedProxies: e.ORRERY_TRUSTED_PROXIES,
    signInLimits: {
      perAccount: e.ORRERY_SIGNIN_FAILURES_PER_ACCOUNT,
      perAddress: e.ORRERY_SIGNIN_FAILURES_PER_ADDRESS,
      windowMs: e.ORRERY_SIGNIN_WINDOW * 1000,
    },
    assistantQuestionsPerMinute: e.ORRERY_ASSISTANT_QUESTIONS_PER_MINUTE,
    flows: { maxBakeTasks: e.ORRERY_FLOW_MAX_BAKE_TASKS, maxMatrix: e.ORRERY_FLOW_MAX_MATRIX },
    appTemplatesDir: e.ORRERY_APP_TEMPLATES_DIR ? resolve(e.ORRERY_APP_TEMPLATES_DIR) : undefined,
    secretsKey: e.ORRERY_SECRETS_KEY,
    registryUrl: e.ORRERY_REGISTRY_URL,
    runtime: {
      kind: e.ORRERY_RUNTIME,
      dockerHost: e.DOCKER_HOST,
      dockerNetwork: e.ORRERY_DOCKER_NETWORK,
      killGraceMs: e.ORRERY_KILL_GRACE_SECONDS * 1000,
      unsandboxedJobs: e.ORRERY_UNSANDBOXED_JOBS,
      ...(e.ORRERY_GPU_DESCRIPTION ? { gpus: e.ORRERY_GPU_DESCRIPTION } : {}),
      kube: kubeOptions(e),
      slurm: slurmOptions(e),
    },
    payments: paymentsOf(e),
    ...(e.ORRERY_ASSISTANT_LLM_URL
      ? {
          assistantLlm: {
            url: e.ORRERY_ASSISTANT_LLM_URL,
            apiKey: e.ORRERY_ASSISTANT_LLM_API_KEY,
            model: e.ORRERY_ASSISTANT_LLM_MODEL,
          },
        }
      : {}),
    ...(e.ORRERY_S3_ENDPOINT
      ? {
          s3: {
            endpoint: e.ORRERY_S3_ENDPOINT,
            region: e.ORRERY_S3_REGION,
            accessKeyId: e.ORRERY_S3_ACCESS_KEY_ID!,
            secretAccessKey: e.ORRERY_S3_SECRET_ACCESS_KEY!,
            storageBucket: e.ORRERY_S3_STORAGE_BUCKET,
            forcePathStyle: e.ORRERY_S3_FORCE_PATH_STYLE,
            shareKeys: e.ORRERY_S3_SHARE_KEYS,
          },
        }
      : {}),
  };
}
