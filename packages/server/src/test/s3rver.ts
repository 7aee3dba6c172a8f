import crypto from 'node:crypto';
import { createWriteStream, mkdtempSync, rmSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import S3rver from 's3rver';

/**
 * An S3-compatible server for tests: s3rver on a free loopback port, its objects in a temporary
 * directory removed on stop. `env` configures an Orrery server to use it (ORRERY_S3_*).
 */
export interface TestS3 {
  endpoint: string;
  env: Record<string, string>;
  stop(): Promise<void>;
}

/** Storage backends the storage suites run against: both, or the one named by TEST_STORAGE. */
export const STORAGE_BACKENDS = (['fs', 's3'] as const).filter(
  (k) => !process.env.TEST_STORAGE || process.env.TEST_STORAGE === k,
);

/**
 * s3rver encrypts ListObjectsV2 continuation tokens with single DES, which OpenSSL 3 (Node 20)
 * no longer offers, so every truncated listing failed with 500. Triple DES with one key repeated
 * three times computes exactly single DES: s3rver gets the cipher it asks for.
 */
function allowSingleDes() {
  const c = crypto as unknown as Record<string, (...a: unknown[]) => unknown> & { desOk?: true };
  if (c.desOk) return;
  for (const name of ['createCipheriv', 'createDecipheriv']) {
    const original = c[name];
    c[name] = (algorithm: unknown, key: unknown, ...rest: unknown[]) =>
      algorithm === 'des'
        ? original(
            'des-ede3-cbc',
            Buffer.concat([key as Buffer, key as Buffer, key as Buffer]),
            ...rest,
          )
        : original(algorithm, key, ...rest);
  }
  c.desOk = true;
}

/** The part of s3rver's file store that a PUT goes through. */
interface S3rverStore {
  getResourcePath(bucket: string, key: string, resource: string): string;
  putMetadata(bucket: string, key: string, metadata: unknown, md5: string): Promise<void>;
  putObject(object: S3rverObject): Promise<{ size: number; md5: string }>;
}
interface S3rverObject {
  bucket: string;
  key: string;
  metadata: unknown;
  content: Buffer | Readable;
}

/**
 * s3rver answers a PUT once it has hashed the body, not once its file is written (its store
 * resolves before the write stream finishes), so a GET right after could read the object short
 * or empty: a test that wrote then read failed now and then. The stand-in's store here answers
 * when the file is on disk, as S3 does when it answers.
 */
function putAnswersWhenWritten(store: S3rverStore) {
  store.putObject = async (object) => {
    const file = store.getResourcePath(object.bucket, object.key, 'object');
    await mkdir(dirname(file), { recursive: true });
    const md5 = crypto.createHash('md5');
    let size = 0;
    const source = Buffer.isBuffer(object.content) ? [object.content] : object.content;
    await pipeline(
      source,
      new Transform({
        transform(chunk: Buffer, _encoding, done) {
          md5.update(chunk);
          size += chunk.length;
          done(null, chunk);
        },
      }),
      createWriteStream(file),
    );
    const hash = md5.digest('hex');
    await store.putMetadata(object.bucket, object.key, object.metadata, hash);
    return { size, md5: hash };
  };
}

export async function startS3rver(opts: { storageBucket?: string } = {}): Promise<TestS3> {
  allowSingleDes();
  const directory = mkdtempSync(join(tmpdir(), 'orrery-s3rver-'));
  const server = new S3rver({
    address: '127.0.0.1',
    port: 0,
    silent: true,
    directory,
    resetOnClose: true,
  });
  putAnswersWhenWritten((server as unknown as { store: S3rverStore }).store);
  const { port } = await server.run();
  const endpoint = `http://127.0.0.1:${port}`;
  return {
    endpoint,
    env: {
      ORRERY_S3_ENDPOINT: endpoint,
      // s3rver's one account.
      ORRERY_S3_ACCESS_KEY_ID: 'S3RVER',
      ORRERY_S3_SECRET_ACCESS_KEY: 'S3RVER',
      ...(opts.storageBucket ? { ORRERY_S3_STORAGE_BUCKET: opts.storageBucket } : {}),
    },
    async stop() {
      await server.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}

/** Environment for a test server using the storage backend `kind`, and how to stop it. */
export async function storageEnv(kind: 'fs' | 's3') {
  if (kind === 'fs') return { env: {}, stop: async () => {} };
  const s3 = await startS3rver({ storageBucket: 'orrery-files' });
  return { env: s3.env, stop: () => s3.stop() };
}
