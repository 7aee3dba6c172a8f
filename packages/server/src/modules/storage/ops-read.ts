import type { FastifyReply, FastifyRequest } from 'fastify';
import { ndjsonStream, wantsNdjson } from '../../http/ndjson.js';
import type { Action, FileStatus } from '@orrery/contract';
import { actionOn, type Grant } from '../../auth/permissions.js';
import { authorize } from '../../http/access.js';
import type { BlobBackend, Entry } from '../../blob/backend.js';
import { blob, httpOf, notFoundErr, StorageError } from './errors.js';
import { grantsBelow, requireVisible } from './access.js';
import { keyOf, uriOf, wirePath, type StoragePath } from './paths.js';
import { inlineFileHeaders } from './content-type.js';

export interface OpContext {
  backend: BlobBackend;
  request: FastifyRequest;
  reply: FastifyReply;
  path: StoragePath;
  grants: Grant[];
}

export const statusOf = (e: Entry, path: string, permission: Action): FileStatus => ({
  path,
  length: e.size,
  modificationTime: Math.floor(e.mtime.getTime() / 1000),
  permission,
  type: e.type,
  ...(e.target !== undefined ? { target: e.target } : {}),
});

/**
 * Awaits the first item of a stream of results, so that a failure at the start (ENOENT,
 * ENOTDIR) is still an HTTP status; later failures become a final NDJSON error line.
 */
export async function primed<T>(items: AsyncIterable<T>): Promise<AsyncIterable<T>> {
  const it = items[Symbol.asyncIterator]();
  const first = await blob(() => it.next());
  return {
    async *[Symbol.asyncIterator]() {
      if (first.done) return;
      yield first.value;
      for (let r = await it.next(); !r.done; r = await it.next()) yield r.value;
    },
  };
}

/** Lines of NDJSON from a stream of objects, ending with `{"error", "errno"}` on a failure. */
export const ndjson = (items: AsyncIterable<object>) =>
  ndjsonStream(items, {
    errorLine: (e) => {
      const err = httpOf(e);
      return err instanceof StorageError ? err.body() : { error: 'internal', message: 'Failed' };
    },
  });

export async function getFileStatus({ backend, path, grants, reply }: OpContext) {
  const permission = requireVisible(grants, uriOf(path));
  const entry = await blob(() => backend.stat(keyOf(path)));
  if (!entry) throw notFoundErr();
  return reply.send({ FileStatus: statusOf(entry, wirePath(path), permission) });
}

/** Children the caller may read: all of them with read on the directory, else those shared. */
export async function listStatus({ backend, path, grants, request, reply }: OpContext) {
  const uri = uriOf(path);
  requireVisible(grants, uri);
  const entries = await primed(backend.list(keyOf(path)));
  async function* statuses() {
    for await (const e of entries) {
      const childUri = `${uri}/${e.name}`;
      const permission = actionOn(grants, childUri) ?? (grantsBelow(grants, childUri) && 'read');
      if (permission) yield statusOf(e, e.name, permission);
    }
  }
  if (wantsNdjson(request)) {
    const lines = (async function* () {
      for await (const s of statuses()) yield { FileStatus: s };
    })();
    return reply.type('application/x-ndjson').send(ndjson(lines));
  }
  const all: FileStatus[] = [];
  for await (const s of statuses()) all.push(s);
  return reply.send({ FileStatuses: { FileStatus: all } });
}

export async function getDiskUsage({ backend, path, grants, reply }: OpContext) {
  requireVisible(grants, uriOf(path));
  return reply.send(await blob(() => backend.usage()));
}

type Range = { start: number; end: number } | 'unsatisfiable' | null;

/** One `bytes=` range (`a-b`, `a-`, `-n`); several ranges are answered with the whole file. */
export function parseRange(header: string | undefined, size: number): Range {
  const m = header ? /^bytes=(\d*)-(\d*)$/.exec(header.trim()) : null;
  if (!m || (m[1] === '' && m[2] === '')) return null;
  if (m[1] === '') {
    const n = Number(m[2]);
    return n === 0 || size === 0
      ? 'unsatisfiable'
      : { start: Math.max(0, size - n), end: size - 1 };
  }
  const start = Number(m[1]);
  const end = m[2] === '' ? size - 1 : Math.min(Number(m[2]), size - 1);
  return start >= size || end < start ? 'unsatisfiable' : { start, end };
}

/** OPEN (GET) and HEAD: the file's bytes, streamed, with the headers the SDK reads. */
export async function open({ backend, path, request, reply }: OpContext) {
  await authorize(request, uriOf(path), 'read');
  const entry = await blob(() => backend.stat(keyOf(path), { follow: true }));
  if (!entry) throw notFoundErr();
  const permission = actionOn(await request.grants(), uriOf(path)) ?? 'read';
  reply.headers({
    'x-file-type': entry.type,
    'x-file-permission': permission,
    'x-file-length': String(entry.size),
    'accept-range': 'bytes',
    'accept-ranges': 'bytes',
    'last-modified': entry.mtime.toUTCString(),
  });
  const head = request.method === 'HEAD';
  if (entry.type === 'DIRECTORY') {
    if (head) return reply.send();
    throw new StorageError('bad_request', 'Is a directory', 'EISDIR');
  }
  reply.headers(inlineFileHeaders(entry.name));
  const ranged = rangeOf(request, reply, entry.size);
  if (!ranged) return reply;
  if (head) return reply.send();
  if (ranged.length === 0) return reply.send('');
  return reply.send(await blob(() => backend.read(keyOf(path), ranged.range)));
}

/**
 * The request's Range against a body of `size` bytes: sets status 206, Content-Range and
 * Content-Length and says what to send, or answers 416 itself and returns null.
 */
export function rangeOf(request: FastifyRequest, reply: FastifyReply, size: number) {
  const range = parseRange(request.headers.range, size);
  if (range === 'unsatisfiable') {
    void reply
      .status(416)
      .header('content-range', `bytes */${size}`)
      .type('application/json')
      .send({ error: 'bad_request', message: 'Requested range not satisfiable' });
    return null;
  }
  if (range) reply.status(206).header('content-range', `bytes ${range.start}-${range.end}/${size}`);
  const length = range ? range.end - range.start + 1 : size;
  reply.header('content-length', String(length));
  return { range: range ?? undefined, length };
}
