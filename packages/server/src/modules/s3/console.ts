import { Readable } from 'node:stream';
import type { ByteRange } from '../../blob/backend.js';
import type { ListPage, ListQuery, ObjectStore } from '../../blob/s3-objects.js';
import type { BucketStore } from './store.js';

/**
 * One bucket of the embedded endpoint as the console's object API uses it: the same files the
 * S3 endpoint serves, so what `aws s3 cp` uploaded shows in the console and the other way round.
 */
export class EmbeddedObjects implements ObjectStore {
  constructor(
    private store: BucketStore,
    readonly bucket: string,
  ) {}

  head = (key: string) => this.store.head(this.bucket, key);

  async list(o: ListQuery): Promise<ListPage> {
    await this.store.requireBucket(this.bucket);
    const after = o.token ? Buffer.from(o.token, 'base64url').toString('utf8') : undefined;
    const page = await this.store.list(this.bucket, { ...o, after, max: o.max ?? 1000 });
    return {
      ...page,
      next: page.next === null ? null : Buffer.from(page.next).toString('base64url'),
    };
  }

  async first(prefix: string, max = 1) {
    return (await this.store.list(this.bucket, { prefix, max })).objects;
  }

  get = (key: string, range?: ByteRange): Promise<Readable> =>
    this.store.get(this.bucket, key, range);

  async put(key: string) {
    await this.store.requireBucket(this.bucket);
    await this.store.put(this.bucket, key, Readable.from([]));
  }

  async upload(key: string, body: Readable) {
    await this.store.requireBucket(this.bucket);
    await this.store.put(this.bucket, key, body);
  }

  async deleteMany(keys: string[]) {
    for (const key of keys) await this.store.delete(this.bucket, key);
  }
}
