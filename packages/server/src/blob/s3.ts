import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Config } from '../config.js';
import { blobError, type BlobBackend, type Entry, type Key, type Removed } from './backend.js';
import { isNotFound, Objects, s3Client, type S3Settings } from './s3-objects.js';

/**
 * Files in an S3-compatible bucket (docs/files.md, for files at scale). A key `a/b/c` is the object
 * `a/b/c`; directories are key prefixes, and a zero-byte `a/b/` marker keeps a directory that
 * has nothing in it yet. S3 has no symlinks and no in-place writes: WRITE at an offset rewrites
 * the whole object (see `write`). `rootDepth` leading segments (cluster/org/project) are never
 * files, so conflicts are only looked for below them.
 */
export function createS3Backend(
  s3: S3Settings,
  bucket: string,
  opts: { rootDepth?: number } = {},
): BlobBackend {
  const o = new Objects(s3Client(s3), bucket);
  const rootDepth = opts.rootDepth ?? 0;
  let ready: Promise<void> | undefined;
  const bucketReady = () =>
    (ready ??= o.ensureBucket().catch((e: unknown) => {
      ready = undefined;
      throw e;
    }));
  const path = (key: Key) => key.join('/');
  const dirOf = (key: Key) => (key.length ? `${path(key)}/` : '');
  const isDir = async (key: Key) => (await o.first(dirOf(key))).length > 0;
  /** Whether an ancestor below the root is a file (ENOTDIR for anything below it). */
  const fileAbove = async (key: Key) => {
    const levels = [];
    for (let i = Math.max(1, rootDepth + 1); i < key.length; i++) levels.push(key.slice(0, i));
    return (await Promise.all(levels.map((k) => o.head(path(k))))).some(Boolean);
  };
  /** A directory stays when its last entry goes, as on a file system. */
  const keepParent = async (key: Key) => {
    if (key.length > 1) await o.put(dirOf(key.slice(0, -1)));
  };
  let usage: { at: number; used: number } | undefined;

  const backend: BlobBackend = {
    kind: 's3',

    async stat(key) {
      await bucketReady();
      const last = key.at(-1) ?? '';
      if (!key.length) return { name: '', type: 'DIRECTORY', size: 0, mtime: new Date() };
      const [file, [first]] = await Promise.all([o.head(path(key)), o.first(dirOf(key))]);
      if (file) return { name: last, type: 'FILE', size: file.size, mtime: file.mtime };
      return first ? { name: last, type: 'DIRECTORY', size: 0, mtime: first.mtime } : null;
    },

    async *list(key) {
      await bucketReady();
      const prefix = dirOf(key);
      const now = new Date();
      let seen = false;
      for await (const page of o.pages(prefix, { delimiter: '/' })) {
        for (const obj of page.objects) {
          seen = true;
          const name = obj.key.slice(prefix.length);
          if (name) yield { name, type: 'FILE', size: obj.size, mtime: obj.mtime } as Entry;
        }
        for (const p of page.prefixes) {
          seen = true;
          const name = p.slice(prefix.length, -1);
          // A prefix has no time of its own: directories in a listing show the listing's.
          if (name) yield { name, type: 'DIRECTORY', size: 0, mtime: now } as Entry;
        }
      }
      if (!seen) throw blobError(key.length && (await o.head(path(key))) ? 'ENOTDIR' : 'ENOENT');
    },

    async read(key, range) {
      await bucketReady();
      try {
        return await o.get(path(key), range);
      } catch (e) {
        if (!isNotFound(e)) throw e;
        throw blobError((await isDir(key)) ? 'EISDIR' : 'ENOENT');
      }
    },

    async create(key, body) {
      await bucketReady();
      const [dir, blocked] = await Promise.all([isDir(key), fileAbove(key)]);
      if (dir) throw blobError('EISDIR', 'Destination is a directory');
      if (blocked) throw blobError('ENOTDIR');
      let bytes = 0;
      const counted = new Transform({
        transform(chunk: Buffer, _enc, done) {
          bytes += chunk.length;
          done(null, chunk);
        },
      });
      await settled([pipeline(body, counted), o.upload(path(key), counted)]);
      return bytes;
    },

    /**
     * S3 cannot write into an object: the new object is streamed from the old one's head, the
     * body, and the old one's tail, then replaces it. Each WRITE costs a read and an upload of the
     * whole file, so the CLI's 1 MiB chunked upload of an n MiB file moves O(n²) bytes inside
     * the store; a single streamed CREATE moves each byte once.
     */
    async write(key, offset, body) {
      await bucketReady();
      const k = path(key);
      const cur = await o.head(k);
      if (!cur) throw blobError((await isDir(key)) ? 'EISDIR' : 'ENOENT');
      let written = 0;
      async function* merged() {
        const head = Math.min(offset, cur!.size);
        if (head > 0) yield* await o.get(k, { start: 0, end: head - 1 });
        for (let gap = offset - cur!.size; gap > 0; gap -= 65536) {
          yield Buffer.alloc(Math.min(gap, 65536));
        }
        for await (const chunk of body) {
          written += (chunk as Buffer).length;
          yield chunk as Buffer;
        }
        const tail = offset + written;
        if (cur!.size > tail) yield* await o.get(k, { start: tail, end: cur!.size - 1 });
      }
      await o.upload(k, Readable.from(merged()));
      return written;
    },

    async mkdirs(key) {
      await bucketReady();
      if (key.length > rootDepth && (await o.head(path(key)))) throw blobError('EEXIST');
      if (await fileAbove(key)) throw blobError('ENOTDIR');
      const levels = key.map((_, i) => dirOf(key.slice(0, i + 1)));
      await Promise.all(levels.map((d) => o.put(d)));
    },

    async *remove(key, recursive) {
      await bucketReady();
      if (await o.head(path(key))) {
        await o.deleteMany([path(key)]);
        yield { key, isDir: false };
        await keepParent(key);
        return;
      }
      if (!(await isDir(key))) throw blobError('ENOENT');
      if (!recursive) throw blobError('EISDIR', 'Target is a directory');
      yield* removeDir(o, key, dirOf(key));
      await keepParent(key);
    },

    async rename(from, to) {
      await bucketReady();
      const [srcFile, srcDir] = await Promise.all([o.head(path(from)), isDir(from)]);
      if (!srcFile && !srcDir) throw blobError('ENOENT');
      if (path(from) === path(to)) return;
      const parent = to.length > 1 ? await backend.stat(to.slice(0, -1)) : null;
      if (to.length > 1 && !parent) throw blobError('ENOENT');
      if (parent && parent.type !== 'DIRECTORY') throw blobError('ENOTDIR');
      const [dstFile, dstChildren] = await Promise.all([o.head(path(to)), o.first(dirOf(to), 2)]);
      if (srcFile) {
        if (dstChildren.length) throw blobError('EISDIR');
        await o.copy(path(from), path(to));
        await o.deleteMany([path(from)]);
      } else {
        if (dirOf(to).startsWith(dirOf(from))) throw blobError('EINVAL');
        if (dstFile) throw blobError('ENOTDIR');
        if (dstChildren.some((c) => c.key !== dirOf(to))) throw blobError('ENOTEMPTY');
        await o.put(dirOf(to));
        await moveDir(o, dirOf(from), dirOf(to));
      }
      await keepParent(from);
    },

    /**
     * An object store has no capacity: `total` is the largest safe integer, `used` the bytes
     * stored in the bucket (summed from a listing, at most every 30 s).
     */
    async bytes(key) {
      await bucketReady();
      let used = 0;
      for await (const page of o.pages(dirOf(key)))
        for (const obj of page.objects) used += obj.size;
      return used;
    },

    async usage() {
      await bucketReady();
      if (!usage || Date.now() - usage.at > 30_000) {
        let used = 0;
        for await (const page of o.pages('')) for (const obj of page.objects) used += obj.size;
        usage = { at: Date.now(), used };
      }
      const total = Number.MAX_SAFE_INTEGER;
      return { total, used: usage.used, free: total - usage.used };
    },
  };
  return backend;
}

/** The S3 file backend of the Storage API when an endpoint and a storage bucket are set. */
export function s3StorageBackend(config: Config): BlobBackend | null {
  const bucket = config.s3?.storageBucket;
  return config.s3 && bucket ? createS3Backend(config.s3, bucket, { rootDepth: 3 }) : null;
}

/** Waits for every promise, then fails with the first failure (an upload aborts cleanly). */
async function settled(all: Promise<unknown>[]) {
  const results = await Promise.allSettled(all);
  const failed = results.find((r) => r.status === 'rejected');
  if (failed) throw (failed as PromiseRejectedResult).reason;
}

/**
 * Deletes everything under `prefix` in batches, files as they go, then the directories deepest
 * first and the directory itself last (as the fs backend yields them).
 */
async function* removeDir(o: Objects, key: Key, prefix: string): AsyncIterable<Removed> {
  const dirs = new Set<string>();
  for (;;) {
    // Listed afresh each round: what was deleted is gone, so no continuation token is needed.
    const batch = await o.first(prefix, 1000);
    if (!batch.length) break;
    await o.deleteMany(batch.map((b) => b.key));
    for (const b of batch) {
      const parts = b.key.slice(prefix.length).split('/');
      for (let i = 1; i < parts.length; i++) dirs.add(parts.slice(0, i).join('/'));
      if (parts.at(-1)) yield { key: [...key, ...parts], isDir: false };
    }
  }
  const deepestFirst = [...dirs].sort((a, b) => b.split('/').length - a.split('/').length);
  for (const d of deepestFirst) yield { key: [...key, ...d.split('/')], isDir: true };
  yield { key, isDir: true };
}

/** Copies every object under `from` to the same place under `to`, deleting each page copied. */
async function moveDir(o: Objects, from: string, to: string) {
  for await (const page of o.pages(from)) {
    const keys = page.objects.map((obj) => obj.key);
    for (let i = 0; i < keys.length; i += 16) {
      await Promise.all(keys.slice(i, i + 16).map((k) => o.copy(k, to + k.slice(from.length))));
    }
    await o.deleteMany(keys);
  }
}
