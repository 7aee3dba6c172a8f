import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer, type TestUser } from '../../test/harness.js';
import { call, tenancy } from '../../test/fixtures.js';
import { startS3rver, type TestS3 } from '../../test/s3rver.js';
import { pausedGet, peakGrowth } from '../../test/slow-reader.js';

const MiB = 2 ** 20;
/** Far more than the bound, so a server that buffers the object shows. */
const SIZE = 400 * MiB;
const BOUND_MB = 150;

/** Back-pressure on bucket object reads (issue 10): an unread download costs a bounded RSS. */
describe('a slow reader of a bucket object', () => {
  let s3: TestS3;
  let s: TestServer;
  let owner: TestUser;
  let object: string;

  beforeAll(async () => {
    s3 = await startS3rver();
    s = await startTestServer(s3.env, { listen: true });
    ({ owner } = await tenancy(s));
    const created = await call(s, 'POST', '/api/v1/buckets/buckets', owner, {
      name: 'data',
      org_name: 'acme',
      project_name: 'vision',
    });
    expect(created.status).toBe(201);
    object = `${s.url}/api/v1/buckets/buckets/data/objects/big.bin?org_name=acme&project_name=vision`;
    const chunks = Readable.from(
      (function* () {
        const chunk = Buffer.alloc(MiB, 97);
        for (let n = 0; n < SIZE; n += MiB) yield chunk;
      })(),
    );
    const up = await fetch(object, {
      method: 'PUT',
      headers: { ...owner.headers, 'content-type': 'application/octet-stream' },
      body: Readable.toWeb(chunks) as ReadableStream,
      duplex: 'half',
    } as RequestInit);
    expect(up.status).toBe(201);
  }, 120_000);
  afterAll(async () => {
    await s?.stop();
    await s3?.stop();
  });

  it('holds a paused download of a 400 MB object', async () => {
    let reader: Awaited<ReturnType<typeof pausedGet>> | undefined;
    const grown = await peakGrowth(async () => {
      reader = await pausedGet(object, owner.headers);
      expect(reader.status).toBe(200);
      await new Promise((r) => setTimeout(r, 3000));
    });
    console.log(`bucket object slow reader: server RSS +${grown.toFixed(0)} MB`);
    expect(grown).toBeLessThan(BOUND_MB);
    reader!.leave();
  });
});
