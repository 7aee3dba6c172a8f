import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer, type TestUser } from '../../test/harness.js';
import { tenancy } from '../../test/fixtures.js';
import { STORAGE_BACKENDS, storageEnv } from '../../test/s3rver.js';
import { pausedGet, peakGrowth } from '../../test/slow-reader.js';

const MiB = 2 ** 20;
/** Far more than the bound, so a server that buffers the file shows. */
const SIZE = 400 * MiB;
const BOUND_MB = 150;

/** `bytes` of data as a stream of 1 MiB chunks (the upload is not held in memory either). */
const body = (bytes: number) =>
  Readable.toWeb(
    Readable.from(
      (function* () {
        const chunk = Buffer.alloc(MiB, 97);
        for (let n = 0; n < bytes; n += MiB) yield chunk;
      })(),
    ),
  ) as ReadableStream;

/** Back-pressure on storage reads (issue 10): a download that is not read costs a bounded RSS. */
describe.each(STORAGE_BACKENDS)('a slow reader of a storage file (%s backend)', (kind) => {
  let s: TestServer;
  let owner: TestUser;
  let backend: Awaited<ReturnType<typeof storageEnv>>;
  const file = () => `${s.url}/api/v1/storage/acme/vision/big.bin`;

  beforeAll(async () => {
    backend = await storageEnv(kind);
    s = await startTestServer(backend.env, { listen: true });
    ({ owner } = await tenancy(s));
    const up = await fetch(`${file()}?op=CREATE`, {
      method: 'PUT',
      headers: { ...owner.headers, 'content-type': 'application/octet-stream' },
      body: body(SIZE),
      duplex: 'half',
    } as RequestInit);
    expect(up.status).toBe(201);
  }, 120_000);
  afterAll(async () => {
    await s?.stop();
    await backend?.stop();
  });

  it('holds a paused download of a 400 MB file', async () => {
    let reader: Awaited<ReturnType<typeof pausedGet>> | undefined;
    const grown = await peakGrowth(async () => {
      reader = await pausedGet(`${file()}?op=OPEN`, owner.headers);
      expect(reader.status).toBe(200);
      await new Promise((r) => setTimeout(r, 3000));
    });
    console.log(`storage (${kind}) slow reader: server RSS +${grown.toFixed(0)} MB`);
    expect(grown).toBeLessThan(BOUND_MB);
    reader!.leave();
  });
});
