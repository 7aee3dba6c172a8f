import { Readable } from 'node:stream';
import { z } from 'zod';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { S3Client } from '@aws-sdk/client-s3';
import {
  BucketObject,
  BucketObjectList,
  BucketObjectListQuery,
  BucketObjectsDeleted,
  BucketScopeQuery,
  bucketNotViewable,
  objectKeyError,
  type BucketObjectWire,
  type BucketProvider,
} from '@orrery/contract';
import type { AppContext } from '../../context.js';
import { actionOn } from '../../auth/permissions.js';
import { acceptQueryToken } from '../../auth/query-token.js';
import { conflict, HttpError, invalid, notFound } from '../../http/errors.js';
import { errorResponses } from '../../http/route.js';
import type { ObjectInfo, ObjectStore } from '../../blob/s3-objects.js';
import { inlineFileHeaders } from '../storage/content-type.js';
import { rangeOf } from '../storage/ops-read.js';
import { clientOf, deleteUnder, providerCredentials, sdk } from './service.js';
import { EmbeddedObjects } from '../s3/console.js';
import { bucketStoreOf } from '../s3/service.js';
import { S3Error } from '../s3/xml.js';
import type { BucketContext } from './service.js';
import type { BucketView } from './store.js';
import { BUCKETS_BASE as BASE, oneFromQuery } from './scope.js';

/** Providers whose buckets speak the S3 API; the others are not viewable through Orrery. */
const S3_LIKE = new Set<BucketProvider>(['aws', 'minio', 'seaweedfs']);

const Params = z.object({ bucket: z.string().min(1) });
const KeyParams = Params.extend({ '*': z.string() });
const ReadQuery = BucketScopeQuery.extend({ token: z.string().optional() });
const OBJECTS = `${BASE}/buckets/:bucket/objects`;
const ONE_OBJECT = `${OBJECTS}/*`;

const objectWire = (o: ObjectInfo): BucketObjectWire => ({
  key: o.key,
  size: o.size,
  last_modified: o.mtime.toISOString(),
});

/** A key of the request, refused with 400 when it could leave its bucket or name nothing. */
function keyOf(request: FastifyRequest) {
  const key = (request.params as { '*'?: string })['*'] ?? '';
  const error = key ? objectKeyError(key) : 'An object key is required';
  if (error) throw invalid('key', error);
  return key;
}

/** The raw request body, passed through by this plugin's content-type parser (none: empty). */
const bodyOf = (request: FastifyRequest): Readable =>
  request.body instanceof Readable ? request.body : Readable.from([]);

/**
 * Orrery's object API (docs/buckets.md, an Orrery extension of Apolo's buckets API): the console lists,
 * reads and writes objects through here, permission-checked, instead of reaching the provider
 * from the browser (which would need the provider's keys there and CORS on the store). Bodies are
 * streamed both ways; downloads honour Range.
 */
export function objectRoutes(
  ctx: Pick<AppContext, 'db' | 'verifier'>,
  bc: BucketContext,
  bucketOf: (q: z.infer<typeof BucketScopeQuery>, idOrName: string) => Promise<BucketView>,
) {
  // Imported buckets bring their own endpoint and keys; their clients are made once per bucket.
  const importedClients = new Map<string, S3Client>();

  const embedded = bucketStoreOf(bc.config.dataDir);

  async function storeOf(b: BucketView): Promise<ObjectStore> {
    const provider = b.provider as BucketProvider;
    if (!S3_LIKE.has(provider)) throw new HttpError('bad_request', bucketNotViewable(provider));
    if (!b.imported && !bc.config.s3) return new EmbeddedObjects(embedded, b.providerBucketName);
    const [{ S3Client }, { Objects }] = await sdk();
    if (!b.imported) return new Objects(await clientOf(bc.config.s3!), b.providerBucketName);
    let client = importedClients.get(b.id);
    if (!client) {
      const c = providerCredentials(bc, b);
      if (!c.access_key_id || !c.secret_access_key) {
        throw conflict(
          `Bucket ${b.name ?? b.id} was imported without access_key_id and secret_access_key`,
        );
      }
      client = new S3Client({
        // No endpoint: Amazon's own, addressed as AWS prefers (virtual-hosted style).
        endpoint: c.endpoint_url || undefined,
        forcePathStyle: !!c.endpoint_url,
        region: c.region_name || 'us-east-1',
        credentials: {
          accessKeyId: c.access_key_id,
          secretAccessKey: c.secret_access_key,
          sessionToken: c.session_token || undefined,
        },
        requestChecksumCalculation: 'WHEN_REQUIRED',
        responseChecksumValidation: 'WHEN_REQUIRED',
      });
      importedClients.set(b.id, client);
    }
    return new Objects(client, b.providerBucketName);
  }

  /** The bucket of the request and its object store; the provider's refusals as 404 and 409. */
  async function withStore<T>(
    request: FastifyRequest,
    fn: (store: ObjectStore, b: BucketView) => Promise<T>,
  ): Promise<T> {
    const q = request.query as z.infer<typeof BucketScopeQuery>;
    const b = await bucketOf(q, (request.params as z.infer<typeof Params>).bucket);
    const store = await storeOf(b);
    const label = b.name ?? b.id;
    try {
      return await fn(store, b);
    } catch (e) {
      if (e instanceof S3Error) {
        if (e.code === 'NoSuchBucket')
          throw notFound(`Bucket ${label} is missing in the data directory`);
        throw invalid('key', e.message);
      }
      const [, { isNotFound }] = await sdk();
      const err = e as { name?: string; $metadata?: { httpStatusCode?: number } };
      if (err.name === 'NoSuchBucket') throw notFound(`Bucket ${label} is missing at its provider`);
      if (isNotFound(e)) throw notFound('Object not found');
      // Keys an imported bucket came with may have been revoked since.
      if (err.$metadata?.httpStatusCode === 403) {
        throw conflict(`The provider refused access to bucket ${label}`);
      }
      throw e;
    }
  }

  return async (app: FastifyInstance) => {
    const api = app.withTypeProvider<ZodTypeProvider>();
    // Uploads reach the handler as the raw stream, whatever their content type.
    app.removeAllContentTypeParsers();
    app.addContentTypeParser('*', (_request, payload, done) => done(null, payload));
    // Download links (open in a new tab) cannot set a header.
    acceptQueryToken(app, ctx, (request) => request.routeOptions.url === ONE_OBJECT);

    api.get(
      OBJECTS,
      {
        config: { access: { uri: oneFromQuery, action: 'read' } },
        schema: {
          tags: ['buckets'],
          params: Params,
          querystring: BucketObjectListQuery,
          response: { 200: BucketObjectList, ...errorResponses },
        },
      },
      async (request) => {
        const q = request.query;
        const prefixError = q.prefix && objectKeyError(q.prefix);
        if (prefixError) throw invalid('prefix', prefixError);
        const permission = actionOn(await request.grants(), oneFromQuery(request)) ?? 'read';
        return withStore(request, async (store) => {
          const r = await store.list({
            prefix: q.prefix ?? '',
            delimiter: q.delimiter,
            max: q.max_keys,
            token: q.continuation_token,
          });
          return {
            prefix: q.prefix,
            folders: r.prefixes,
            // The empty object marking the listed folder itself is not one of its entries.
            objects: r.objects.filter((o) => o.key !== q.prefix).map(objectWire),
            next_continuation_token: r.next,
            permission,
          };
        });
      },
    );

    api.get(
      ONE_OBJECT,
      {
        exposeHeadRoute: false,
        config: { access: { uri: oneFromQuery, action: 'read' }, checksOwnPath: true },
        schema: { tags: ['buckets'], params: KeyParams, querystring: ReadQuery },
      },
      async (request, reply) => {
        const key = keyOf(request);
        return withStore(request, async (store) => {
          const info = await store.head(key);
          if (!info) throw notFound('Object not found');
          reply.headers({
            ...inlineFileHeaders(key.slice(key.lastIndexOf('/') + 1)),
            'accept-ranges': 'bytes',
            'last-modified': info.mtime.toUTCString(),
          });
          const ranged = rangeOf(request, reply, info.size);
          if (!ranged) return reply;
          if (ranged.length === 0) return reply.send('');
          return reply.send(await store.get(key, ranged.range));
        });
      },
    );

    api.put(
      ONE_OBJECT,
      {
        config: { access: { uri: oneFromQuery, action: 'write' }, checksOwnPath: true },
        schema: {
          tags: ['buckets'],
          params: KeyParams,
          querystring: BucketScopeQuery,
          response: { 201: BucketObject, ...errorResponses },
        },
      },
      async (request, reply) => {
        const key = keyOf(request);
        const body = bodyOf(request);
        return withStore(request, async (store) => {
          // A key ending in `/` is a folder: an empty object, as S3 consoles make them.
          if (key.endsWith('/')) {
            body.resume();
            if (Number(request.headers['content-length'] ?? 0) > 0) {
              throw invalid('key', 'A folder (a key ending in "/") has no content');
            }
            await store.put(key);
          } else {
            await store.upload(key, body);
          }
          const info = await store.head(key);
          if (!info) throw notFound('Object not found');
          return reply.status(201).send(objectWire(info));
        });
      },
    );

    api.delete(
      ONE_OBJECT,
      {
        config: { access: { uri: oneFromQuery, action: 'write' }, checksOwnPath: true },
        schema: {
          tags: ['buckets'],
          params: KeyParams,
          querystring: BucketScopeQuery,
          response: { 200: BucketObjectsDeleted, ...errorResponses },
        },
      },
      async (request) => {
        const key = keyOf(request);
        return withStore(request, async (store) => {
          // A folder goes with everything below it.
          if (key.endsWith('/')) {
            const deleted = await deleteUnder(store, key);
            if (deleted === 0) throw notFound('Folder not found');
            return { deleted };
          }
          if (!(await store.head(key))) throw notFound('Object not found');
          await store.deleteMany([key]);
          return { deleted: 1 };
        });
      },
    );
  };
}
