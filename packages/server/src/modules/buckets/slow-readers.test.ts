import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer, type TestUser } from '../../test/harness.js';
import { call, tenancy } from '../../test/fixtures.js';
import { startS3rver, type TestS3 } from '../../test/s3rver.js';
import {
  pausedDownloadGrowth,
  putLarge,
  SLOW_READER_BOUND_MB,
  SLOW_READER_MB,
} from '../../test/slow-reader.js';

/** Far more than the bound, so a server that buffers the object shows. */
const SIZE = SLOW_READER_MB * 2 ** 20;

/** Back-pressure on bucket object reads: an unread download costs a bounded RSS. */
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
    expect(await putLarge(object, owner.headers, SIZE)).toBe(201);
  }, 120_000);
  afterAll(async () => {
    await s?.stop();
    await s3?.stop();
  });

  it(`holds a paused download of a ${SLOW_READER_MB} MB object`, async () => {
    const grown = await pausedDownloadGrowth('bucket object', object, owner.headers);
    expect(grown).toBeLessThan(SLOW_READER_BOUND_MB);
  });
});
