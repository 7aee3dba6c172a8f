import { createHash, randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { lstat, mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { BucketStore } from './store.js';
import { S3Error } from './xml.js';

/** S3's limits on parts: 1 to 10000, each but the last at least 5 MiB. */
const MAX_PART = 10000;
const MIN_PART_SIZE = 5 * 1024 * 1024;
/** Upload ids are the server's own UUIDs; nothing else names an upload's directory. */
const UPLOAD_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
/** A stored part is the file `N.MD5` the server named when it took the part. */
const PART_FILE = /^([1-9]\d{0,4})\.([0-9a-f]{32})$/;
/** An ETag as this endpoint hands them out for parts: 32 hex digits, quoted or not. */
const PART_ETAG = /^\s*"?([0-9a-fA-F]{32})"?\s*$/;

const INVALID_PART = (n: unknown) =>
  new S3Error('InvalidPart', `Part ${String(n)} was not uploaded or its ETag differs`);

interface UploadMeta {
  bucket: string;
  key: string;
}

/**
 * Multipart uploads (what `aws s3 cp` uses above 8 MB): each upload is a directory of part
 * files beside the buckets; completing concatenates the named parts into the object at once.
 */
export class Multipart {
  constructor(private store: BucketStore) {}

  private dir = (id: string) => join(this.store.uploads, id);

  async create(bucket: string, key: string) {
    const id = randomUUID();
    await mkdir(this.dir(id), { recursive: true });
    await writeFile(join(this.dir(id), 'upload.json'), JSON.stringify({ bucket, key }));
    return id;
  }

  private async meta(bucket: string, key: string, id: string): Promise<UploadMeta> {
    const raw = UPLOAD_ID.test(id)
      ? await readFile(join(this.dir(id), 'upload.json'), 'utf8').catch(() => null)
      : null;
    const m = raw ? (JSON.parse(raw) as UploadMeta) : null;
    if (!m || m.bucket !== bucket || m.key !== key) {
      throw new S3Error('NoSuchUpload', 'The specified multipart upload does not exist');
    }
    return m;
  }

  /** Stores one part; answers its ETag (the MD5 of its bytes, as S3's). */
  async part(bucket: string, key: string, id: string, n: number, body: Readable) {
    await this.meta(bucket, key, id);
    if (!Number.isInteger(n) || n < 1 || n > MAX_PART) {
      throw new S3Error('InvalidArgument', 'Part number must be an integer between 1 and 10000');
    }
    const md5 = createHash('md5');
    const temp = join(this.dir(id), `${n}.partial`);
    body.on('data', (c: Buffer) => md5.update(c));
    try {
      await pipeline(body, createWriteStream(temp));
    } catch (e) {
      await rm(temp, { force: true });
      throw e;
    }
    const etag = md5.digest('hex');
    await rename(temp, join(this.dir(id), `${n}.${etag}`));
    // A part sent again replaces the earlier one.
    for (const f of await readdir(this.dir(id))) {
      if (f.startsWith(`${n}.`) && f !== `${n}.${etag}`)
        await rm(join(this.dir(id), f), { force: true });
    }
    return `"${etag}"`;
  }

  /** The parts this upload stored, by number: the server's file name and the part's MD5. */
  private async stored(id: string) {
    const parts = new Map<number, { file: string; md5: string }>();
    for (const name of await readdir(this.dir(id))) {
      const m = PART_FILE.exec(name);
      if (m) parts.set(Number(m[1]), { file: join(this.dir(id), name), md5: m[2] });
    }
    return parts;
  }

  /**
   * Joins the listed parts, in order, into the object; the upload is gone afterwards. A listed
   * part must be one this upload stored, by number and the ETag answered for it: the request's
   * strings only pick among the server's own files, never name one.
   */
  async complete(bucket: string, key: string, id: string, parts: { n: number; etag: string }[]) {
    await this.meta(bucket, key, id);
    if (!parts.length)
      throw new S3Error('MalformedXML', 'A multipart upload needs at least one part');
    const stored = await this.stored(id);
    const files: string[] = [];
    const md5s: string[] = [];
    let previous = 0;
    for (const [i, p] of parts.entries()) {
      if (!Number.isInteger(p.n) || p.n < 1 || p.n > MAX_PART) throw INVALID_PART(p.n);
      if (p.n <= previous)
        throw new S3Error('InvalidPartOrder', 'Parts must be listed in ascending order');
      previous = p.n;
      const given = PART_ETAG.exec(p.etag)?.[1].toLowerCase();
      const part = stored.get(p.n);
      if (!given || !part || part.md5 !== given) throw INVALID_PART(p.n);
      const st = await lstat(part.file).catch(() => null);
      if (!st?.isFile()) throw INVALID_PART(p.n);
      if (i < parts.length - 1 && st.size < MIN_PART_SIZE) {
        throw new S3Error('EntityTooSmall', 'Each part but the last must be at least 5 MiB');
      }
      files.push(part.file);
      md5s.push(part.md5);
    }
    const temp = await this.store.temp();
    const out = createWriteStream(temp);
    try {
      for (const f of files) await pipeline(createReadStream(f), out, { end: false });
      out.end();
      await new Promise<void>((resolve, reject) =>
        out.on('close', () => resolve()).on('error', reject),
      );
    } catch (e) {
      out.destroy();
      await rm(temp, { force: true });
      throw e;
    }
    const info = await this.store.place(bucket, key, temp);
    await rm(this.dir(id), { recursive: true, force: true });
    // S3's multipart ETag: the MD5 of the parts' MD5s, then the part count.
    const joined = createHash('md5');
    for (const md5 of md5s) joined.update(Buffer.from(md5, 'hex'));
    return { ...info, etag: `"${joined.digest('hex')}-${parts.length}"` };
  }

  async abort(bucket: string, key: string, id: string) {
    await this.meta(bucket, key, id);
    await rm(this.dir(id), { recursive: true, force: true });
  }
}
