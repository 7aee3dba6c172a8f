import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer, type TestUser } from '../../test/harness.js';
import { tenancy } from '../../test/fixtures.js';
import { STORAGE_BACKENDS, storageEnv } from '../../test/s3rver.js';
import {
  pausedDownloadGrowth,
  putLarge,
  SLOW_READER_BOUND_MB,
  SLOW_READER_MB,
} from '../../test/slow-reader.js';

/** Far more than the bound, so a server that buffers the file shows. */
const SIZE = SLOW_READER_MB * 2 ** 20;

/** Back-pressure on storage reads: a download that is not read costs a bounded RSS. */
describe.each(STORAGE_BACKENDS)('a slow reader of a storage file (%s backend)', (kind) => {
  let s: TestServer;
  let owner: TestUser;
  let backend: Awaited<ReturnType<typeof storageEnv>>;
  const file = () => `${s.url}/api/v1/storage/acme/vision/big.bin`;

  beforeAll(async () => {
    backend = await storageEnv(kind);
    s = await startTestServer(backend.env, { listen: true });
    ({ owner } = await tenancy(s));
    expect(await putLarge(`${file()}?op=CREATE`, owner.headers, SIZE)).toBe(201);
  }, 120_000);
  afterAll(async () => {
    await s?.stop();
    await backend?.stop();
  });

  it(`holds a paused download of a ${SLOW_READER_MB} MB file`, async () => {
    const grown = await pausedDownloadGrowth(
      `storage (${kind})`,
      `${file()}?op=OPEN`,
      owner.headers,
    );
    expect(grown).toBeLessThan(SLOW_READER_BOUND_MB);
  });
});
