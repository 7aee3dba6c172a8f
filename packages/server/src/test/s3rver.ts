import crypto from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
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
