import type { Readable } from 'node:stream';
import {
  CopyObjectCommand,
  CreateBucketCommand,
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import type { Config } from '../config.js';
import type { ByteRange } from './backend.js';

export type S3Settings = NonNullable<Config['s3']>;

/** A client for the configured endpoint; checksums only where S3 requires them (MinIO, s3rver). */
export function s3Client(s3: S3Settings): S3Client {
  return new S3Client({
    endpoint: s3.endpoint,
    region: s3.region,
    forcePathStyle: s3.forcePathStyle,
    credentials: { accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey },
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
}

export const isNotFound = (e: unknown) => {
  const err = e as { name?: string; $metadata?: { httpStatusCode?: number } };
  return (
    err?.name === 'NotFound' ||
    err?.name === 'NoSuchKey' ||
    err?.name === 'NoSuchBucket' ||
    err?.$metadata?.httpStatusCode === 404
  );
};

export interface ObjectInfo {
  key: string;
  size: number;
  mtime: Date;
}

export interface Page {
  objects: ObjectInfo[];
  /** Common prefixes (with their trailing delimiter) when listing with a delimiter. */
  prefixes: string[];
}

export interface ListQuery {
  prefix: string;
  delimiter?: string;
  max?: number;
  token?: string;
}

export interface ListPage {
  objects: ObjectInfo[];
  prefixes: string[];
  /** The continuation token of the next page; null on the last. */
  next: string | null;
}

/** What the buckets module does with one bucket, on an external S3 or the embedded endpoint. */
export interface ObjectStore {
  head(key: string): Promise<ObjectInfo | null>;
  list(o: ListQuery): Promise<ListPage>;
  first(prefix: string, max?: number): Promise<ObjectInfo[]>;
  get(key: string, range?: ByteRange): Promise<Readable>;
  put(key: string): Promise<void>;
  upload(key: string, body: Readable): Promise<void>;
  deleteMany(keys: string[]): Promise<void>;
}

/** A batch of DeleteObjects can name at most 1000 keys. */
const DELETE_BATCH = 1000;
/** Parts of a multipart upload; bodies below one part go up in a single PUT. */
const PART_SIZE = 8 * 1024 * 1024;

/** The object operations the S3 file backend and the buckets module use, on one bucket. */
export class Objects implements ObjectStore {
  constructor(
    readonly client: S3Client,
    readonly bucket: string,
  ) {}

  async head(key: string): Promise<ObjectInfo | null> {
    try {
      const r = await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: key }));
      return { key, size: r.ContentLength ?? 0, mtime: r.LastModified ?? new Date() };
    } catch (e) {
      if (isNotFound(e)) return null;
      throw e;
    }
  }

  /** Pages of a listing, following continuation tokens. */
  async *pages(prefix: string, opts: { delimiter?: string; max?: number } = {}) {
    let token: string | undefined;
    do {
      const r = await this.client.send(
        new ListObjectsV2Command({
          Bucket: this.bucket,
          Prefix: prefix,
          Delimiter: opts.delimiter,
          MaxKeys: opts.max,
          ContinuationToken: token,
        }),
      );
      const page: Page = {
        objects: (r.Contents ?? []).map((o) => ({
          key: o.Key ?? '',
          size: o.Size ?? 0,
          mtime: o.LastModified ?? new Date(),
        })),
        prefixes: (r.CommonPrefixes ?? []).map((p) => p.Prefix ?? ''),
      };
      yield page;
      token = r.IsTruncated && !opts.max ? r.NextContinuationToken : undefined;
    } while (token);
  }

  /** One page of a listing, as the console's object API shows it. */
  async list(o: ListQuery): Promise<ListPage> {
    const r = await this.client.send(
      new ListObjectsV2Command({
        Bucket: this.bucket,
        Prefix: o.prefix || undefined,
        Delimiter: o.delimiter,
        MaxKeys: o.max,
        ContinuationToken: o.token,
      }),
    );
    return {
      prefixes: (r.CommonPrefixes ?? []).map((p) => p.Prefix ?? '').filter(Boolean),
      objects: (r.Contents ?? [])
        .filter((c) => c.Key)
        .map((c) => ({ key: c.Key!, size: c.Size ?? 0, mtime: c.LastModified ?? new Date() })),
      next: (r.IsTruncated && r.NextContinuationToken) || null,
    };
  }

  /** The first objects under a prefix (in key order: a `dir/` marker comes first). */
  async first(prefix: string, max = 1): Promise<ObjectInfo[]> {
    for await (const page of this.pages(prefix, { max })) return page.objects;
    return [];
  }

  async get(key: string, range?: ByteRange): Promise<Readable> {
    const r = await this.client.send(
      new GetObjectCommand({
        Bucket: this.bucket,
        Key: key,
        Range: range ? `bytes=${range.start}-${range.end}` : undefined,
      }),
    );
    return r.Body as Readable;
  }

  async put(key: string, body: Buffer = Buffer.alloc(0)) {
    await this.client.send(
      new PutObjectCommand({
        Bucket: this.bucket,
        Key: key,
        Body: body,
        ContentLength: body.length,
      }),
    );
  }

  /**
   * Streams a body into an object. Multipart above one part: the object appears only when the
   * upload completes, and a failed upload is aborted, leaving the previous object in place.
   */
  async upload(key: string, body: Readable) {
    const upload = new Upload({
      client: this.client,
      params: { Bucket: this.bucket, Key: key, Body: body },
      partSize: PART_SIZE,
      queueSize: 2,
    });
    await upload.done();
  }

  async copy(from: string, to: string) {
    const source = `${this.bucket}/${from.split('/').map(encodeURIComponent).join('/')}`;
    await this.client.send(
      new CopyObjectCommand({ Bucket: this.bucket, Key: to, CopySource: source }),
    );
  }

  async deleteMany(keys: string[]) {
    for (let i = 0; i < keys.length; i += DELETE_BATCH) {
      const batch = keys.slice(i, i + DELETE_BATCH);
      const r = await this.client.send(
        new DeleteObjectsCommand({
          Bucket: this.bucket,
          Delete: { Objects: batch.map((Key) => ({ Key })), Quiet: true },
        }),
      );
      const failed = r.Errors?.[0];
      if (failed) throw new Error(`S3 could not delete ${failed.Key}: ${failed.Message}`);
    }
  }

  /** Creates the bucket when it is not there yet. */
  async ensureBucket() {
    try {
      await this.client.send(new HeadBucketCommand({ Bucket: this.bucket }));
    } catch (e) {
      if (!isNotFound(e)) throw e;
      await this.client.send(new CreateBucketCommand({ Bucket: this.bucket }));
    }
  }
}
