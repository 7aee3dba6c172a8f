import { join } from 'node:path';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { DEFAULT_STORAGE_OP, STORAGE_OPS, StorageQuery, type StorageOp } from '@orrery/contract';
import type { AppContext } from '../../context.js';
import { requireUser } from '../../auth/principal.js';
import { acceptQueryToken } from '../../auth/query-token.js';
import { createFsBackend } from '../../blob/fs.js';
import type { BlobBackend } from '../../blob/backend.js';
import { blob, illegal } from './errors.js';
import { visibleAction } from './access.js';
import { keyOf, rawPathOf, resolvePath, segmentsOf, STORAGE_PREFIX, uriOf } from './paths.js';
import { getDiskUsage, getFileStatus, listStatus, open, type OpContext } from './ops-read.js';
import { create, mkdirs, remove, rename, write } from './ops-write.js';

const METHODS_OF: Record<StorageOp, string[]> = {
  LISTSTATUS: ['GET'],
  GETFILESTATUS: ['GET'],
  GETDISKUSAGE: ['GET'],
  OPEN: ['GET', 'HEAD'],
  CREATE: ['PUT'],
  MKDIRS: ['PUT'],
  WRITE: ['PATCH'],
  DELETE: ['DELETE'],
  RENAME: ['POST'],
};

/** `?op=NAME` (any case), a bare `?NAME`, or the method's default. */
export function opOf(request: FastifyRequest): StorageOp {
  const q = request.query as Record<string, unknown>;
  const named =
    typeof q.op === 'string'
      ? q.op.toUpperCase()
      : Object.keys(q)
          .map((k) => k.toUpperCase())
          .find((k) => (STORAGE_OPS as readonly string[]).includes(k));
  // HEAD answers OPEN's headers whatever the query says.
  const op = request.method === 'HEAD' ? 'OPEN' : (named ?? DEFAULT_STORAGE_OP[request.method]);
  if (!(STORAGE_OPS as readonly string[]).includes(op)) throw illegal('Illegal operation');
  if (!METHODS_OF[op as StorageOp].includes(request.method)) throw illegal('Illegal operation');
  return op as StorageOp;
}

const opOrNull = (request: FastifyRequest) => {
  try {
    return opOf(request);
  } catch {
    return null;
  }
};

/** Where project files live: S3 with a storage bucket, else `<dataDir>/storage`. */
export async function storageBackendOf(ctx: AppContext): Promise<BlobBackend> {
  // The S3 backend (and the AWS SDK) loads only when files live on S3.
  return (
    (ctx.config.s3?.storageBucket
      ? (await import('../../blob/s3.js')).s3StorageBackend(ctx.config)
      : null) ?? createFsBackend(join(ctx.config.dataDir, 'storage'), { jailDepth: 3 })
  );
}

/**
 * Files of every project, at `/api/v1/storage/ORG/PROJECT/PATH?op=…`, stored by
 * the file backend under `CLUSTER/ORG/PROJECT/PATH`. Bodies are streamed both ways: an upload
 * goes from the socket to a temporary file, a download from the file to the socket.
 */

export const storageRoutes =
  (ctx: AppContext, backend?: BlobBackend): FastifyPluginAsync =>
  async (app) => {
    const files = backend ?? (await storageBackendOf(ctx));
    // In this plugin only: every body, whatever its type, reaches the handler as the raw stream
    // (uploads keep their own content type; the CLI sends octet-stream, also with no body).
    app.removeAllContentTypeParsers();
    app.addContentTypeParser('*', (_request, payload, done) => done(null, payload));

    // "Open in new tab" cannot set a header: GET op=OPEN alone may carry the token in the query.
    acceptQueryToken(app, ctx, (request) => opOrNull(request) === 'OPEN');

    // Project directories are made on first use (a project's files start empty).
    const ready = new Set<string>();

    app.route({
      method: ['GET', 'HEAD', 'PUT', 'PATCH', 'POST', 'DELETE'],
      url: `${STORAGE_PREFIX}/*`,
      exposeHeadRoute: false,
      // segmentsOf checks the raw path itself and answers with the errno the SDK maps.
      config: { access: 'user-or-token', checksOwnPath: true },
      schema: { tags: ['storage'], querystring: StorageQuery },
      handler: async (request, reply) => {
        requireUser(request);
        const op = opOf(request);
        const grants = await request.grants();
        const segments = segmentsOf(rawPathOf(request.url));
        const path = await resolvePath(ctx.db, segments, grants, await request.accessSnapshot());
        const root = keyOf({ ...path, rest: [] });
        if (!ready.has(root.join('/')) && visibleAction(grants, uriOf({ ...path, rest: [] }))) {
          await blob(() => files.mkdirs(root));
          ready.add(root.join('/'));
        }
        const c: OpContext = { backend: files, request, reply, path, grants };
        switch (op) {
          case 'LISTSTATUS':
            return listStatus(c);
          case 'GETFILESTATUS':
            return getFileStatus(c);
          case 'GETDISKUSAGE':
            return getDiskUsage(c);
          case 'OPEN':
            return open(c);
          case 'CREATE':
            return create(c);
          case 'WRITE':
            return write(c);
          case 'MKDIRS':
            return mkdirs(c);
          case 'DELETE':
            return remove(c);
          case 'RENAME':
            return rename(c, ctx.db);
        }
      },
    });
  };
