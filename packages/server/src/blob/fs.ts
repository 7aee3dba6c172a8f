import { randomBytes } from 'node:crypto';
import { createWriteStream, mkdirSync, type Stats } from 'node:fs';
import {
  lstat,
  mkdir,
  open,
  opendir,
  readlink,
  rename,
  rm,
  rmdir,
  stat,
  statfs,
  unlink,
} from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import {
  asBlobError,
  blobError,
  type BlobBackend,
  type Entry,
  type Key,
  type Removed,
} from './backend.js';
import { PathJail } from './fs-paths.js';

/** Uploads in progress are written under this prefix beside their target, and never listed. */
export const TEMP_PREFIX = '.orrery-upload-';

/**
 * The embedded file backend: a directory tree (docs/files.md). `jailDepth` is how many
 * leading key segments form a jail that symlinks may not leave (3: cluster/org/project).
 */
export function createFsBackend(root: string, opts: { jailDepth?: number } = {}): BlobBackend {
  mkdirSync(root, { recursive: true });
  const paths = new PathJail(root, opts.jailDepth ?? 0);
  const guard = async <T>(fn: () => Promise<T>) => {
    try {
      return await fn();
    } catch (e) {
      throw asBlobError(e);
    }
  };

  return {
    kind: 'fs',

    async stat(key, o) {
      try {
        if (o?.follow) {
          const real = await paths.follow(key);
          return { ...(await entryOf(real, await stat(real))), name: basename(paths.plain(key)) };
        }
        const path = await paths.entry(key);
        return await entryOf(path, await lstat(path));
      } catch (e) {
        const err = asBlobError(e) as { errno?: string };
        if (err.errno === 'ENOENT' || err.errno === 'ENOTDIR') return null;
        throw err;
      }
    },

    list: (key) => listDir(paths, key),

    read: (key, range) =>
      guard(async () => {
        const file = await open(await paths.follow(key), 'r');
        if ((await file.stat()).isDirectory()) {
          await file.close();
          throw blobError('EISDIR');
        }
        // 1 MiB reads: the default 64 KiB made a 1 GiB download sixteen thousand round trips.
        return file.createReadStream({
          highWaterMark: READ_CHUNK,
          ...(range ? { start: range.start, end: range.end } : {}),
        });
      }),

    create: (key, body) =>
      guard(async () => {
        const target = await paths.follow(key);
        await mkdir(dirname(target), { recursive: true });
        const existing = await lstat(target).catch(() => null);
        if (existing?.isDirectory()) throw blobError('EISDIR', 'Destination is a directory');
        // Same directory as the target, so the final rename is atomic on one filesystem.
        const temp = join(dirname(target), `${TEMP_PREFIX}${randomBytes(8).toString('hex')}`);
        const out = createWriteStream(temp, { flags: 'wx' });
        try {
          await pipeline(body, out);
          await rename(temp, target);
        } catch (e) {
          await rm(temp, { force: true });
          throw e;
        }
        return out.bytesWritten;
      }),

    write: (key, offset, body) =>
      guard(async () => {
        const file = await open(await paths.follow(key), 'r+');
        if ((await file.stat()).isDirectory()) {
          await file.close();
          throw blobError('EISDIR');
        }
        const out = file.createWriteStream({ start: offset });
        await pipeline(body, out);
        return out.bytesWritten;
      }),

    mkdirs: (key) =>
      guard(async () => {
        await mkdir(paths.plain(key.slice(0, opts.jailDepth ?? 0)), { recursive: true });
        await mkdir(await paths.follow(key), { recursive: true });
      }),

    remove: (key, recursive) => removeTree(paths, key, recursive),

    rename: (from, to) =>
      guard(async () => {
        const src = await paths.entry(from);
        const dst = await paths.entry(to);
        await lstat(src);
        await rename(src, dst);
      }),

    bytes: (key) => guard(() => bytesBelow(paths.plain(key))),

    usage: () =>
      guard(async () => {
        const s = await statfs(root);
        return {
          total: s.blocks * s.bsize,
          used: (s.blocks - s.bfree) * s.bsize,
          free: s.bavail * s.bsize,
        };
      }),
  };
}

async function entryOf(path: string, st: Stats): Promise<Entry> {
  const type = st.isSymbolicLink() ? 'SYMLINK' : st.isDirectory() ? 'DIRECTORY' : 'FILE';
  return {
    name: basename(path),
    type,
    size: type === 'FILE' ? st.size : 0,
    mtime: st.mtime,
    ...(type === 'SYMLINK' ? { target: await readlink(path) } : {}),
  };
}

async function* listDir(paths: PathJail, key: Key): AsyncIterable<Entry> {
  let dir;
  try {
    dir = await opendir(await paths.follow(key));
  } catch (e) {
    throw asBlobError(e);
  }
  // Entries are stat'ed a batch at a time: one lstat after another made a listing of 100,000
  // entries take seconds. The Dir handle closes itself when the iteration ends or is abandoned.
  const stat = async (name: string) => {
    const path = join(dir.path, name);
    const st = await lstat(path).catch(() => null); // removed meanwhile
    return st ? entryOf(path, st) : null;
  };
  let batch: string[] = [];
  const flush = async function* () {
    for (const e of await Promise.all(batch.map(stat))) if (e) yield e;
    batch = [];
  };
  for await (const d of dir) {
    if (d.name.startsWith(TEMP_PREFIX)) continue;
    batch.push(d.name);
    if (batch.length === LIST_BATCH) yield* flush();
  }
  yield* flush();
}

/** Sizes of the regular files of a tree, a batch of lstat calls at a time as in listDir. */
async function bytesBelow(path: string): Promise<number> {
  let dir;
  try {
    dir = await opendir(path);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return 0;
    throw e;
  }
  let total = 0;
  const dirs: string[] = [];
  let batch: string[] = [];
  const flush = async () => {
    for (const st of await Promise.all(batch.map((p) => lstat(p).catch(() => null)))) {
      if (st?.isFile()) total += st.size;
    }
    batch = [];
  };
  for await (const d of dir) {
    const child = join(path, d.name);
    if (d.isDirectory()) dirs.push(child);
    else if (d.isFile()) batch.push(child);
    if (batch.length === LIST_BATCH) await flush();
  }
  await flush();
  for (const child of dirs) total += await bytesBelow(child);
  return total;
}

const LIST_BATCH = 64;
const READ_CHUNK = 1 << 20;

async function* removeTree(paths: PathJail, key: Key, recursive: boolean): AsyncIterable<Removed> {
  let path: string;
  let st: Stats;
  try {
    path = await paths.entry(key);
    st = await lstat(path);
  } catch (e) {
    throw asBlobError(e);
  }
  if (!st.isDirectory()) {
    await unlink(path);
    yield { key, isDir: false };
    return;
  }
  if (!recursive) throw blobError('EISDIR', 'Target is a directory');
  yield* removeDir(path, key);
}

/** Depth first, children before their directory; symlinks are removed, never followed. */
async function* removeDir(path: string, key: Key): AsyncIterable<Removed> {
  for await (const d of await opendir(path)) {
    const child = [...key, d.name];
    if (d.isDirectory()) {
      yield* removeDir(join(path, d.name), child);
    } else {
      await unlink(join(path, d.name));
      yield { key: child, isDir: false };
    }
  }
  await rmdir(path);
  yield { key, isDir: true };
}
