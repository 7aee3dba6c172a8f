import { Readable } from 'node:stream';
import type { FastifyRequest } from 'fastify';
import type { Db } from '../../db/client.js';
import { authorize } from '../../http/access.js';
import { blob, illegal, StorageError } from './errors.js';
import { wantsNdjson } from '../../http/ndjson.js';
import { ndjson, primed, type OpContext } from './ops-read.js';
import { destinationSegments, keyOf, resolvePath, uriOf, type StoragePath } from './paths.js';

/** The raw request body, passed through by the plugin's content-type parser (none: empty). */
const bodyOf = (request: FastifyRequest): Readable =>
  request.body instanceof Readable ? request.body : Readable.from([]);

/** Ops that carry no content may still get a body (the CLI sends octet-stream): drop it. */
const discardBody = (request: FastifyRequest) => {
  if (request.body instanceof Readable) request.body.resume();
};

const rootRefused = (path: StoragePath, what: string) => {
  if (path.rest.length === 0) {
    throw new StorageError('bad_request', `Cannot ${what} the project's root directory`, 'EINVAL');
  }
};

export async function create({ backend, path, request, reply }: OpContext) {
  await authorize(request, uriOf(path), 'write');
  if (path.rest.length === 0) {
    throw new StorageError('bad_request', 'Destination is a directory', 'EISDIR');
  }
  await blob(() => backend.create(keyOf(path), bodyOf(request)));
  return reply.status(201).send();
}

/** `Content-Range: bytes a-b/*` (or `/size`): where the body goes. */
function offsetOf(header: string | undefined): number {
  const m = header ? /^bytes (\d+)-(\d+)\/(\d+|\*)$/.exec(header.trim()) : null;
  if (!m || Number(m[2]) < Number(m[1])) {
    throw illegal('WRITE needs a Content-Range header such as "bytes 0-1048575/*"');
  }
  // Beyond this a JS number no longer counts bytes exactly (and the file system refused far less).
  if (Number(m[2]) > Number.MAX_SAFE_INTEGER) throw illegal('Write offset too large');
  return Number(m[1]);
}

export async function write({ backend, path, request, reply }: OpContext) {
  await authorize(request, uriOf(path), 'write');
  const offset = offsetOf(request.headers['content-range']);
  await blob(() => backend.write(keyOf(path), offset, bodyOf(request)));
  return reply.status(200).send();
}

export async function mkdirs({ backend, path, request, reply }: OpContext) {
  discardBody(request);
  await authorize(request, uriOf(path), 'write');
  const existing = await blob(() => backend.stat(keyOf(path), { follow: true }));
  if (existing && existing.type !== 'DIRECTORY') {
    throw new StorageError('bad_request', 'File exists', 'EEXIST');
  }
  await blob(() => backend.mkdirs(keyOf(path)));
  return reply.status(201).send();
}

/** Removed entries as NDJSON when asked for (the CLI prints them), else 204 once all are gone. */
export async function remove({ backend, path, request, reply }: OpContext) {
  discardBody(request);
  await authorize(request, uriOf(path), 'write');
  rootRefused(path, 'remove');
  const q = request.query as { recursive?: string };
  // The server default is recursive; the CLI always says which it wants.
  const recursive = !/^(false|0)$/i.test(q.recursive ?? 'true');
  const removed = await primed(backend.remove(keyOf(path), recursive));
  const lines = (async function* () {
    for await (const r of removed) yield { path: `/${r.key.slice(1).join('/')}`, is_dir: r.isDir };
  })();
  if (wantsNdjson(request)) return reply.type('application/x-ndjson').send(ndjson(lines));
  // Entries are removed as they are consumed: drain them all before answering.
  await blob(async () => {
    for await (const _ of lines);
  });
  return reply.status(204).send();
}

export async function rename({ backend, path, request, reply, grants }: OpContext, db: Db) {
  discardBody(request);
  await authorize(request, uriOf(path), 'write');
  rootRefused(path, 'move');
  const q = request.query as { destination?: string };
  if (!q.destination) throw illegal('RENAME needs a destination');
  const dst = await resolvePath(db, destinationSegments(path, q.destination), grants);
  if (dst.rest.length === 0) throw new StorageError('bad_request', 'Incorrect destination');
  await authorize(request, uriOf(dst), 'write');
  if (dst.cluster !== path.cluster) throw illegal('Cannot move files between clusters');
  await blob(() => backend.rename(keyOf(path), keyOf(dst)));
  return reply.status(204).send();
}
