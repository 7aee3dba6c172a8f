import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  Bucket,
  BucketCreate,
  BucketImport,
  BucketList,
  BucketListQuery,
  BucketScopeQuery,
  DEFAULT_BUCKET_CLUSTER,
} from '@orrery/contract';
import type { AppContext } from '../../context.js';
import { requireUser } from '../../auth/principal.js';
import { errorResponses } from '../../http/route.js';
import { loadSecretsKey } from '../secrets/key.js';
import {
  bucketAt,
  bucketsIn,
  createBucket,
  deleteBucket,
  importBucket,
  type BucketContext,
} from './service.js';
import { bucketWire } from './wire.js';
import { sendList } from '../../http/ndjson.js';
import { credentialRoutes } from './routes-credentials.js';
import { objectRoutes } from './routes-objects.js';
import {
  BUCKETS_BASE as BASE,
  fromBody,
  fromPath,
  fromQuery,
  oneFromQuery,
  pathParts,
  placeOfQuery,
} from './scope.js';

const OneBucket = z.object({ bucket: z.string().min(1) });
const ByPath = z.object({
  path: z.string().min(1),
  cluster_name: z.string().min(1).default(DEFAULT_BUCKET_CLUSTER),
});

/** Buckets and persistent credentials under `buckets_url` = `/api/v1/buckets`. */
export const bucketRoutes =
  (ctx: AppContext): FastifyPluginAsyncZod =>
  async (app) => {
    const bc: BucketContext = {
      db: ctx.db,
      config: ctx.config,
      sealKey: loadSecretsKey({ configured: ctx.config.secretsKey, dataDir: ctx.config.dataDir }),
    };
    const one = (q: z.infer<typeof BucketScopeQuery>, idOrName: string) =>
      bucketAt(ctx.db, placeOfQuery(q), idOrName);

    app.get(
      `${BASE}/buckets`,
      {
        config: { access: { uri: fromQuery, action: 'read' } },
        schema: { tags: ['buckets'], querystring: BucketListQuery, response: { 200: BucketList } },
      },
      async (request, reply) => {
        const q = request.query;
        const found = await bucketsIn(ctx.db, placeOfQuery(q), q.owner);
        return sendList(request, reply, found.map(bucketWire));
      },
    );

    app.post(
      `${BASE}/buckets`,
      {
        config: { access: { uri: fromBody, action: 'write' } },
        schema: {
          tags: ['buckets'],
          body: BucketCreate,
          response: { 201: Bucket, ...errorResponses },
        },
      },
      async (request, reply) => {
        const b = request.body;
        const row = await createBucket(bc, requireUser(request), placeOfQuery(b), b.name);
        return reply.status(201).send(bucketWire(await one(b, row.id)));
      },
    );

    app.post(
      `${BASE}/buckets/import/external`,
      {
        config: { access: { uri: fromBody, action: 'write' } },
        schema: {
          tags: ['buckets'],
          body: BucketImport,
          response: { 201: Bucket, ...errorResponses },
        },
      },
      async (request, reply) => {
        const b = request.body;
        const row = await importBucket(bc, requireUser(request), placeOfQuery(b), {
          name: b.name,
          provider: b.provider,
          bucket: b.provider_bucket_name,
          credentials: b.credentials,
        });
        return reply.status(201).send(bucketWire(await one(b, row.id)));
      },
    );

    app.get(
      `${BASE}/buckets/find/by_path`,
      {
        config: { access: { uri: fromPath, action: 'read' } },
        schema: {
          tags: ['buckets'],
          querystring: ByPath,
          response: { 200: Bucket, ...errorResponses },
        },
      },
      async (request) => {
        const p = pathParts(request);
        const scope = { cluster_name: p.cluster, org_name: p.org, project_name: p.project };
        return bucketWire(await one(scope, p.bucket));
      },
    );

    app.get(
      `${BASE}/buckets/:bucket`,
      {
        config: { access: { uri: oneFromQuery, action: 'read' } },
        schema: {
          tags: ['buckets'],
          params: OneBucket,
          querystring: BucketScopeQuery,
          response: { 200: Bucket, ...errorResponses },
        },
      },
      async (request) => bucketWire(await one(request.query, request.params.bucket)),
    );

    app.delete(
      `${BASE}/buckets/:bucket`,
      {
        config: { access: { uri: oneFromQuery, action: 'write' } },
        schema: {
          tags: ['buckets'],
          params: OneBucket,
          querystring: BucketScopeQuery,
          response: { 204: z.null(), ...errorResponses },
        },
      },
      async (request, reply) => {
        await deleteBucket(bc, await one(request.query, request.params.bucket));
        return reply.status(204).send(null);
      },
    );

    credentialRoutes(app, bc);
    await app.register(objectRoutes(ctx, bc, one));
  };
