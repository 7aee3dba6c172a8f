import { createHash, randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream, type Stats } from 'node:fs';
import { copyFile, lstat, mkdir, readdir, rename, rm, rmdir, unlink } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { objectKeyError } from '@orrery/contract';
import type { ByteRange } from '../../blob/backend.js';
import { S3Error } from './xml.js';

/**
 * Buckets of the embedded S3 endpoint, as directory trees under `<data dir>/buckets`: the object
 * `a/b.csv` of a bucket is the file `buckets/BUCKET/a/b.csv`. A folder object (`a/`, an empty
 * key ending in `/`, as S3 consoles make them) is a directory holding a `.orrery-folder` mark;
 * directories without one exist only while something is below them. Writes go to a temporary
 * file first and appear by rename, so a failed or unverified upload leaves the previous object.
 */

const RESERVED = '.orrery-';
/** The names `providerBucketName` makes (buckets/service.ts). */
const BUCKET_NAME = /^[a-z0-9][a-z0-9-]{0,62}$/;
const FOLDER_MARK = `${RESERVED}folder`;

export interface ObjectInfo {
  key: string;
  size: number;
  mtime: Date;
  etag: string;
}

export interface Listing {
  objects: ObjectInfo[];
  prefixes: string[];
  /** The last key or prefix returned, when there is more after it. */
  next: string | null;
}

const byteOrder = (a: string, b: string) => Buffer.compare(Buffer.from(a), Buffer.from(b));

/** Not the object's MD5 (that would mean reading it): a tag that changes when the object does. */
const etagOf = (key: string, st: Stats) =>
  `"${createHash('md5').update(`${key}\0${st.size}\0${st.mtimeMs}\0${st.ino}`).digest('hex')}"`;

const code = (e: unknown) => (e as NodeJS.ErrnoException)?.code;

/** A key S3 clients may use here: the object API's rule, and nothing Orrery keeps beside it. */
export function checkKey(key: string) {
  const error = key ? objectKeyError(key) : 'An object key is required';
  if (error) throw new S3Error('InvalidArgument', error);
  if (key.split('/').some((s) => s.startsWith(RESERVED))) {
    throw new S3Error('InvalidArgument', `Key segments starting with "${RESERVED}" are reserved`);
  }
}

export class BucketStore {
  readonly tmp: string;
  readonly uploads: string;
  constructor(readonly root: string) {
    this.tmp = join(root, `${RESERVED}tmp`);
    this.uploads = join(root, `${RESERVED}multipart`);
  }

  /**
   * Paths are made only from names that cannot leave the tree: the bucket names Orrery makes
   * (lowercase letters, digits, hyphens) and keys that pass `checkKey`. Callers check both
   * before; this is the last line should one forget.
   */
  private dir = (bucket: string) => {
    if (!BUCKET_NAME.test(bucket)) {
      throw new S3Error('NoSuchBucket', 'The specified bucket does not exist');
    }
    return join(this.root, bucket);
  };
  private path = (bucket: string, key: string) => {
    checkKey(key);
    return join(this.dir(bucket), ...key.split('/'));
  };

  async create(bucket: string) {
    await mkdir(this.dir(bucket), { recursive: true });
  }

  /** Removes a bucket with everything in it. */
  async drop(bucket: string) {
    await rm(this.dir(bucket), { recursive: true, force: true });
  }

  /** Fails with NoSuchBucket when the bucket's directory is gone. */
  async requireBucket(bucket: string) {
    const st = await lstat(this.dir(bucket)).catch(() => null);
    if (!st?.isDirectory())
      throw new S3Error('NoSuchBucket', 'The specified bucket does not exist');
  }

  async head(bucket: string, key: string): Promise<ObjectInfo | null> {
    const folder = key.endsWith('/');
    const st = await lstat(
      folder ? join(this.path(bucket, key.slice(0, -1)), FOLDER_MARK) : this.path(bucket, key),
    ).catch(() => null);
    if (!st?.isFile()) return null;
    return { key, size: st.size, mtime: st.mtime, etag: etagOf(key, st) };
  }

  async get(bucket: string, key: string, range?: ByteRange): Promise<Readable> {
    if (key.endsWith('/')) return createReadStream('/dev/null');
    return createReadStream(this.path(bucket, key), {
      highWaterMark: 1 << 20,
      ...(range ? { start: range.start, end: range.end } : {}),
    });
  }

  /** A temporary file on the same file system, so the final rename is atomic. */
  async temp() {
    await mkdir(this.tmp, { recursive: true });
    return join(this.tmp, randomBytes(12).toString('hex'));
  }

  /** Moves a finished temporary file in as the object, creating its folders. */
  async place(bucket: string, key: string, temp: string) {
    const target = key.endsWith('/')
      ? join(this.path(bucket, key.slice(0, -1)), FOLDER_MARK)
      : this.path(bucket, key);
    try {
      await mkdir(dirname(target), { recursive: true });
      await rename(temp, target);
    } catch (e) {
      await rm(temp, { force: true });
      if (code(e) === 'ENAMETOOLONG') {
        throw new S3Error('KeyTooLongError', 'A key segment is longer than 255 bytes here');
      }
      if (['EISDIR', 'ENOTDIR', 'EEXIST', 'ENOTEMPTY'].includes(code(e) ?? '')) {
        throw new S3Error(
          'InvalidRequest',
          'Here an object key cannot also be a folder of other objects (a/b beside a/b/c)',
        );
      }
      throw e;
    }
    return (await this.head(bucket, key))!;
  }

  async put(bucket: string, key: string, body: Readable) {
    const temp = await this.temp();
    try {
      await pipeline(body, createWriteStream(temp, { flags: 'wx' }));
    } catch (e) {
      await rm(temp, { force: true });
      throw e;
    }
    return this.place(bucket, key, temp);
  }

  async copy(bucket: string, from: string, toBucket: string, to: string) {
    const source = await this.head(bucket, from);
    if (!source) throw new S3Error('NoSuchKey', 'The specified key does not exist.');
    const temp = await this.temp();
    if (from.endsWith('/')) await pipeline(createReadStream('/dev/null'), createWriteStream(temp));
    else await copyFile(this.path(bucket, from), temp);
    return this.place(toBucket, to, temp);
  }

  /** Deletes an object (absent is fine, as on S3) and the folders it leaves empty. */
  async delete(bucket: string, key: string) {
    const folder = key.endsWith('/');
    const target = folder
      ? join(this.path(bucket, key.slice(0, -1)), FOLDER_MARK)
      : this.path(bucket, key);
    try {
      await unlink(target);
    } catch (e) {
      if (code(e) === 'ENOENT' || code(e) === 'ENOTDIR') return;
      if (code(e) === 'EISDIR' || code(e) === 'EPERM') return;
      throw e;
    }
    const top = this.dir(bucket);
    for (let dir = dirname(target); dir !== top && dir.startsWith(top); dir = dirname(dir)) {
      try {
        await rmdir(dir);
      } catch {
        break;
      }
    }
  }

  /**
   * One page of a listing in S3's order (UTF-8 bytes of the keys), after `after`. With the `/`
   * delimiter a folder is a prefix and is not walked; other delimiters group the walked keys.
   */
  async list(
    bucket: string,
    o: { prefix: string; delimiter?: string; after?: string; max: number },
  ): Promise<Listing> {
    const out: Listing = { objects: [], prefixes: [], next: null };
    if (o.max <= 0) return out;
    let last = '';
    for await (const item of this.walk(this.dir(bucket), '', o.prefix, o.delimiter === '/')) {
      if (!item.key.startsWith(o.prefix)) continue;
      let prefix: string | null = item.prefix ? item.key : null;
      if (!prefix && o.delimiter) {
        const at = item.key.indexOf(o.delimiter, o.prefix.length);
        if (at >= 0) prefix = item.key.slice(0, at + o.delimiter.length);
      }
      const name = prefix ?? item.key;
      if (o.after && byteOrder(name, o.after) <= 0) continue;
      if (prefix && prefix === last) continue;
      if (out.objects.length + out.prefixes.length >= o.max) {
        out.next = last;
        return out;
      }
      if (prefix) out.prefixes.push(prefix);
      else out.objects.push(item.info!);
      last = name;
    }
    return out;
  }

  private async *walk(
    dir: string,
    base: string,
    prefix: string,
    folderPrefixes: boolean,
  ): AsyncGenerator<{ key: string; prefix?: boolean; info?: ObjectInfo }> {
    let names: string[];
    try {
      names = await readdir(dir);
    } catch (e) {
      if (code(e) === 'ENOENT' || code(e) === 'ENOTDIR') return;
      throw e;
    }
    const entries: { name: string; key: string; st: Stats }[] = [];
    for (const name of names) {
      if (name.startsWith(RESERVED) && name !== FOLDER_MARK) continue;
      const st = await lstat(join(dir, name)).catch(() => null);
      if (!st) continue;
      if (name === FOLDER_MARK) {
        if (base) entries.push({ name, key: base, st });
      } else if (st.isDirectory()) entries.push({ name, key: `${base}${name}/`, st });
      else if (st.isFile()) entries.push({ name, key: `${base}${name}`, st });
    }
    // A folder's mark (its own key) sorts before everything below it.
    entries.sort((a, b) => byteOrder(a.key, b.key) || (a.name === FOLDER_MARK ? -1 : 1));
    for (const e of entries) {
      if (e.name === FOLDER_MARK || e.st.isFile()) {
        yield {
          key: e.key,
          info: { key: e.key, size: e.st.size, mtime: e.st.mtime, etag: etagOf(e.key, e.st) },
        };
        continue;
      }
      // Only folders on the way to the prefix, or inside it, hold anything to list.
      if (!e.key.startsWith(prefix) && !prefix.startsWith(e.key)) continue;
      if (folderPrefixes && e.key.startsWith(prefix) && e.key.length > prefix.length) {
        yield { key: e.key, prefix: true };
        continue;
      }
      yield* this.walk(join(dir, e.name), e.key, prefix, folderPrefixes);
    }
  }
}
