import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../../context.js';
import { allows } from '../../auth/permissions.js';
import { principalOf } from '../../auth/principal-hook.js';
import { loadSecretsKey } from '../secrets/key.js';
import { S3_PATH, s3SecretOf } from './keys.js';
import { bucketStoreOf } from './service.js';
import { Multipart } from './multipart.js';
import { verify, type Signer } from './sigv4.js';
import { S3Error, errorDocument } from './xml.js';
import { objectCalls } from './objects.js';

/** A bucket Orrery made, as the endpoint serves it; `uri` is what permissions name it by. */
export interface S3Bucket {
  providerBucketName: string;
  createdAt: Date;
  imported: boolean;
  uri: string;
}

/**
 * Where the endpoint finds what an access key opens: the buckets module's credentials and
 * buckets, handed in by app.ts. The buckets module is built on this endpoint's object store, so
 * this module imports nothing of it.
 */
export interface S3Directory {
  credentials(id: string): Promise<{
    id: string;
    owner: string | null;
    readOnly: boolean;
    bucketIds: string[];
  } | null>;
  buckets(ids: string[]): Promise<S3Bucket[]>;
}

/** Who is calling: the credentials they signed with and the buckets those open. */
export interface Caller {
  signer: Signer;
  readOnly: boolean;
  /** Provider bucket name → bucket, for the buckets Orrery made that the credentials name. */
  buckets: Map<string, S3Bucket>;
}

export interface S3Request {
  request: FastifyRequest;
  reply: FastifyReply;
  caller: Caller;
  bucket: string;
  key: string;
  query: URLSearchParams;
  body: Readable;
}

const accessKeyOf = (request: FastifyRequest) => {
  const auth = request.headers.authorization;
  const m = typeof auth === 'string' ? /Credential=([^/,\s]+)\//.exec(auth) : null;
  if (m) return m[1];
  const q = new URLSearchParams(request.url.slice(request.url.indexOf('?') + 1));
  return q.get('X-Amz-Credential')?.split('/')[0] ?? null;
};

/**
 * The embedded S3-compatible endpoint (docs/buckets.md) at `/s3`, path-style, for buckets Orrery
 * made when no external endpoint is configured. Requests are authenticated by SigV4 with the
 * keys of persistent bucket credentials, and each is checked again in the permission engine as
 * the credentials' owner, so credentials stop working for someone who lost access.
 */
export function s3Routes(ctx: AppContext, directory: S3Directory) {
  const store = bucketStoreOf(ctx.config.dataDir);
  const multipart = new Multipart(store);
  const sealKey = loadSecretsKey({
    configured: ctx.config.secretsKey,
    dataDir: ctx.config.dataDir,
  });
  const calls = objectCalls(store, multipart);

  async function callerOf(request: FastifyRequest): Promise<Caller> {
    const id = accessKeyOf(request);
    const creds = id ? await directory.credentials(id) : null;
    const signer = verify(
      { method: request.method, url: request.url, headers: request.headers },
      (key) => (creds && key === creds.id ? s3SecretOf(sealKey, creds.id) : null),
    );
    const snapshot = await request.accessSnapshot();
    const owner = creds!.owner ? await snapshot.user(creds!.owner) : null;
    const grants = owner ? await snapshot.grants(principalOf(owner)) : [];
    const buckets = new Map<string, S3Bucket>();
    for (const b of await directory.buckets(creds!.bucketIds)) {
      if (!b.imported && allows(grants, b.uri, 'read')) buckets.set(b.providerBucketName, b);
    }
    // Read-write credentials write only while their owner may still write the bucket.
    const readOnly =
      creds!.readOnly || [...buckets.values()].some((b) => !allows(grants, b.uri, 'write'));
    return { signer, readOnly, buckets };
  }

  async function handle(request: FastifyRequest, reply: FastifyReply) {
    const requestId = randomBytes(8).toString('hex').toUpperCase();
    reply.header('x-amz-request-id', requestId);
    const path = request.url.split('?')[0].slice(S3_PATH.length).replace(/^\//, '');
    try {
      const caller = await callerOf(request);
      const slash = path.indexOf('/');
      const decode = (s: string) => {
        try {
          return decodeURIComponent(s);
        } catch {
          throw new S3Error('InvalidURI', 'The path is not valid URI encoding');
        }
      };
      const bucket = decode(slash < 0 ? path : path.slice(0, slash));
      const key = slash < 0 ? '' : decode(path.slice(slash + 1));
      const query = new URLSearchParams(request.url.includes('?') ? request.url.split('?')[1] : '');
      const body = request.body instanceof Readable ? request.body : Readable.from([]);
      await calls({ request, reply, caller, bucket, key, query, body });
      return reply;
    } catch (e) {
      if (!(e instanceof S3Error)) throw e;
      if (request.body instanceof Readable) request.body.resume();
      reply.status(e.status);
      if (request.method === 'HEAD') return reply.send();
      return reply.type('application/xml').send(errorDocument(e, `/${path}`, requestId));
    }
  }

  return async (app: FastifyInstance) => {
    // Bodies reach the calls as the raw stream, whatever their content type.
    app.removeAllContentTypeParsers();
    app.addContentTypeParser('*', (_request, payload, done) => done(null, payload));
    for (const url of [S3_PATH, `${S3_PATH}/`, `${S3_PATH}/*`]) {
      app.route({
        method: ['GET', 'HEAD', 'PUT', 'POST', 'DELETE'],
        url,
        exposeHeadRoute: false,
        // SigV4 is this endpoint's authentication; the owner's grants are checked per request.
        config: { access: 'public' },
        schema: { hide: true },
        handler: handle,
      });
    }
  };
}
