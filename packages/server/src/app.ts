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
import { configModule } from './modules/config/plugin.js';
import { usersModule } from './modules/users/plugin.js';
import { accountsModule } from './modules/accounts/plugin.js';
import { orgsModule } from './modules/orgs/plugin.js';
import { projectsModule } from './modules/projects/plugin.js';
import { permissionsModule } from './modules/permissions/plugin.js';
import { diskOwnerRefinement } from './modules/disks/refinements.js';
import { memberRefinement } from './modules/people/refinements.js';
import { disksModule } from './modules/disks/plugin.js';
import { DiskHolders } from './modules/disks/service.js';
import { secretsModule } from './modules/secrets/plugin.js';
import { storageModule } from './modules/storage/plugin.js';
import { bucketsModule } from './modules/buckets/plugin.js';
import { s3Module } from './modules/s3/plugin.js';
import { s3Directory } from './modules/buckets/service.js';
import { imagesModule } from './modules/images/plugin.js';
import { appCatalogue, appsModule, type AppsOptions } from './modules/apps/plugin.js';
import type { Catalogue } from './modules/apps/catalogue.js';
import { chargeSubjectOf } from './modules/apps/store.js';
import { hostModule } from './modules/host/plugin.js';
import { jobsModule, type JobsOptions } from './modules/jobs/plugin.js';
import type { JobsService } from './modules/jobs/service.js';
import { flowsModule } from './modules/flows/plugin.js';
import { assistantModule, type AssistantOptions } from './modules/assistant/plugin.js';
import { installWebsocket } from './http/websocket.js';
import { hostKeyOf, ingressRewrite } from './modules/jobs/ingress-host.js';
import { peopleModule } from './modules/people/plugin.js';
import { invitesModule } from './modules/invites/plugin.js';
import { adminModule } from './modules/admin/plugin.js';
import { poolStatuses } from './modules/admin/pools.js';
import { clusterOrgLink } from './modules/admin/store.js';
import { quotasModule } from './modules/quotas/plugin.js';
import { LocalGpus } from './runtime/machine.js';
import { tokensModule } from './modules/tokens/plugin.js';
import { billingModule, type BillingOptions } from './modules/billing/plugin.js';
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
  // The app catalogue for the runtime the jobs module picks, made once: the apps module serves
  // it, the host module lists the apps whose programs this machine lacks, the assistant installs
  // from it.
  let catalogue: Catalogue | undefined;
  const catalogueFor = (jobs: JobsService) =>
    (catalogue ??= appCatalogue(ctx, jobs.driver, app.log, opts.apps));
  // Each module once, by its plugin.ts (docs/architecture.md, The modules' entrances).
  await registerIdentity(app, ctx);
  await app.register(configModule(ctx));
  await app.register(usersModule(ctx));
  await app.register(accountsModule(ctx));
  await app.register(orgsModule(ctx));
  await app.register(projectsModule(ctx));
  await app.register(
    permissionsModule(ctx, [diskOwnerRefinement(ctx.db), memberRefinement(ctx.db)]),
  );
  await app.register(disksModule(ctx, disks));
  await app.register(secretsModule(ctx));
  await app.register(storageModule(ctx));
  await app.register(bucketsModule(ctx));
  // Without an external S3 endpoint, buckets are served by Orrery's own (docs/buckets.md).
  if (!ctx.config.s3) await app.register(s3Module(ctx, s3Directory(ctx.db)));
  await app.register(imagesModule(ctx));
  await installWebsocket(app, {
    exempt: (request) => hostKeyOf(request) !== null,
    consoleOrigin: new URL(ctx.config.publicUrl).origin,
  });
  await app.register(
    jobsModule(ctx, { chargedAs: chargeSubjectOf, disks, ...opts.jobs }, [
      (jobs) => appsModule(ctx, jobs, catalogueFor(jobs), opts.apps),
      (jobs) => hostModule(ctx, jobs.driver, catalogueFor(jobs).missingPrograms()),
      (jobs) => flowsModule(ctx, jobs),
      (jobs) => assistantModule(ctx, jobs, catalogueFor(jobs), opts.assistant),
    ]),
  );
  await app.register(peopleModule(ctx));
  await app.register(invitesModule(ctx));
  await app.register(adminModule(ctx, machine));
  await app.register(quotasModule(ctx, (cluster, org) => clusterOrgLink(ctx.db, cluster, org)));
  await app.register(tokensModule(ctx));
  await app.register(
    billingModule(ctx, (cluster) => poolStatuses(ctx.db, cluster, machine), opts.billing),
  );
  await registerDocs(app, ctx.config);
  if (opts.webDist !== null) await registerWeb(app, ctx.config, opts.webDist);
  return app;
}
