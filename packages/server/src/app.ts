import Fastify, { type FastifyInstance } from 'fastify';
import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import {
  jsonSchemaTransform,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import type { AppContext } from './context.js';
import { responseSerializer } from './http/serializer.js';
import { installErrorHandler } from './http/errors-plugin.js';
import { installAccess } from './http/access.js';
import { installTextGuard } from './http/text-guard.js';
import { installPrincipal } from './auth/principal-hook.js';
import { createEpochCache } from './db/epoch-cache.js';
import { registerIdentity } from './auth/identity.js';
import { installMetrics } from './observability/metrics.js';
import { registerWeb } from './http/web.js';
import { installSecurityHeaders } from './http/security-headers.js';
import { registerDocs } from './http/docs.js';
import { requestSerializer } from './observability/redact.js';
import { configRoutes } from './modules/config/routes.js';
import { userRoutes } from './modules/users/routes.js';
import { accountRoutes } from './modules/accounts/routes.js';
import { orgRoutes } from './modules/orgs/routes.js';
import { projectRoutes } from './modules/projects/routes.js';
import { permissionRoutes } from './modules/permissions/routes.js';
import { diskOwnerRefinement } from './modules/disks/refinements.js';
import { memberRefinement } from './modules/people/refinements.js';
import { diskRoutes } from './modules/disks/routes.js';
import { DiskHolders } from './modules/disks/service.js';
import { secretRoutes } from './modules/secrets/routes.js';
import { storageRoutes } from './modules/storage/routes.js';
import { bucketRoutes } from './modules/buckets/routes.js';
import { s3Routes } from './modules/s3/routes.js';
import { s3Directory } from './modules/buckets/service.js';
import { imageRoutes } from './modules/images/routes.js';
import { appsModule, type AppsOptions } from './modules/apps/plugin.js';
import { chargeSubjectOf } from './modules/apps/store.js';
import { jobsModule, type JobsOptions } from './modules/jobs/plugin.js';
import { flowsModule } from './modules/flows/plugin.js';
import { assistantModule, type AssistantOptions } from './modules/assistant/plugin.js';
import { installWebsocket } from './http/websocket.js';
import { hostKeyOf, ingressRewrite } from './modules/jobs/ingress-host.js';
import { peopleRoutes } from './modules/people/routes.js';
import { inviteRoutes } from './modules/invites/routes.js';
import { adminRoutes } from './modules/admin/routes.js';
import { poolStatuses } from './modules/admin/pools.js';
import { LocalGpus } from './runtime/machine.js';
import { tokenRoutes } from './modules/tokens/routes.js';
import { serviceAccountRoutes } from './modules/tokens/accounts.js';
import { adminReadRoutes } from './modules/admin/reads.js';
import { billingModule, type BillingOptions } from './modules/billing/plugin.js';
import { reportRoutes } from './modules/billing/reports-routes.js';
import { paymentRoutes } from './modules/billing/routes-payments.js';
import { usageRoutes } from './modules/billing/routes-usage.js';
import { budgetRoutes } from './modules/billing/routes-budgets.js';
import type { createTokenVerifier } from './auth/verify.js';
import { proxyTrust } from './net/trusted-proxies.js';

export type App = FastifyInstance;

export interface BuildOptions {
  logger?: boolean | object;
  /** Directory of the built console; null serves no console (API tests). */
  webDist?: string | null;
  /** Check every response against its schema (tests); production only serializes. */
  validateResponses?: boolean;
  /** The jobs service's runtime and intervals (tests). */
  jobs?: JobsOptions;
  /** The apps watcher's intervals (tests). */
  apps?: AppsOptions;
  /** The storage sampler's interval (tests). */
  billing?: BillingOptions;
  /** The assistant's model hook and rate limit (tests; the model part fills the hook). */
  assistant?: AssistantOptions;
  /** What holds the server's disks (tests stand in for a workload using one). */
  disks?: DiskHolders;
}

/** Builds the whole server from its plugins and modules. */
export async function buildApp(ctx: AppContext, opts: BuildOptions = {}): Promise<App> {
  const app = Fastify({
    logger: opts.logger ?? { level: ctx.config.logLevel, serializers: { req: requestSerializer } },
    // X-Forwarded-* only from the operator's proxies: believed from anyone, each sign-in try
    // could claim a new client address (docs/operations.md, Behind a reverse proxy).
    trustProxy: ctx.config.trustedProxies.length ? proxyTrust(ctx.config.trustedProxies) : false,
    forceCloseConnections: 'idle',
    return503OnClosing: true,
    ajv: { customOptions: { coerceTypes: 'array' } },
    // A job's own host is routed to its ingress before any console or API route is matched.
    rewriteUrl: ingressRewrite(ctx.config),
  }).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(responseSerializer({ validate: opts.validateResponses ?? false }));

  installErrorHandler(app);
  installSecurityHeaders(app);
  await app.register(fastifySwagger, {
    openapi: {
      info: { title: `${ctx.config.branding.title} platform API`, version: '1' },
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } },
      security: [{ bearer: [] }],
    },
    transform: jsonSchemaTransform,
  });
  await app.register(fastifySwaggerUi, { routePrefix: '/api/docs' });
  installMetrics(app);
  installPrincipal(app, ctx.db, ctx.verifier as ReturnType<typeof createTokenVerifier>, {
    provisionUnknown: ctx.config.oidc.external,
    cache: createEpochCache(ctx.database.epochs),
  });
  installAccess(app);
  installTextGuard(app);

  app.get('/healthz', { logLevel: 'warn' }, async () => ({ status: 'ok' }));
  app.get('/readyz', { logLevel: 'warn' }, async (_req, reply) => {
    try {
      await ctx.database.ping();
      return { status: 'ready', database: ctx.database.kind };
    } catch {
      return reply.status(503).send({ status: 'unavailable', database: ctx.database.kind });
    }
  });

  // This machine's GPUs, probed at most once a minute for this server's views of its pools.
  const machine = new LocalGpus(ctx.config.runtime.gpus);
  // What holds a disk: the jobs service answers for this server's disks once it starts.
  const disks = opts.disks ?? new DiskHolders();
  await registerIdentity(app, ctx);
  await app.register(configRoutes(ctx));
  await app.register(userRoutes(ctx));
  await app.register(accountRoutes(ctx));
  await app.register(orgRoutes(ctx));
  await app.register(projectRoutes(ctx));
  await app.register(
    permissionRoutes(ctx, [diskOwnerRefinement(ctx.db), memberRefinement(ctx.db)]),
  );
  await app.register(diskRoutes(ctx, disks));
  await app.register(secretRoutes(ctx));
  await app.register(storageRoutes(ctx));
  await app.register(bucketRoutes(ctx));
  // Without an external S3 endpoint, buckets are served by Orrery's own (docs/buckets.md).
  if (!ctx.config.s3) await app.register(s3Routes(ctx, s3Directory(ctx.db)));
  await app.register(imageRoutes(ctx));
  await installWebsocket(app, {
    exempt: (request) => hostKeyOf(request) !== null,
    consoleOrigin: new URL(ctx.config.publicUrl).origin,
  });
  await app.register(
    jobsModule(ctx, { chargedAs: chargeSubjectOf, disks, ...opts.jobs }, [
      (jobs) => appsModule(ctx, jobs, opts.apps),
      (jobs) => flowsModule(ctx, jobs),
      (jobs) => assistantModule(ctx, jobs, opts.assistant),
    ]),
  );
  await app.register(peopleRoutes(ctx));
  await app.register(inviteRoutes(ctx));
  await app.register(adminRoutes(ctx, machine));
  await app.register(adminReadRoutes(ctx));
  await app.register(tokenRoutes(ctx));
  await app.register(serviceAccountRoutes(ctx));
  await app.register(
    billingModule(ctx, (cluster) => poolStatuses(ctx.db, cluster, machine), opts.billing),
  );
  await app.register(paymentRoutes(ctx));
  await app.register(usageRoutes(ctx));
  await app.register(budgetRoutes(ctx));
  await app.register(reportRoutes(ctx));
  await registerDocs(app, ctx.config);
  if (opts.webDist !== null) await registerWeb(app, ctx.config, opts.webDist);
  return app;
}
