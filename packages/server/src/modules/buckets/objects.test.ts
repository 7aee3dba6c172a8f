import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CreateBucketCommand, S3Client } from '@aws-sdk/client-s3';
import {
  BucketObject,
  BucketObjectList,
  GCP_BUCKET_NOT_VIEWABLE,
  OBJECT_KEY_INVALID,
} from '@orrery/contract';
import { startTestServer, type TestServer, type TestUser } from '../../test/harness.js';
import { call, tenancy } from '../../test/fixtures.js';
import { startS3rver, type TestS3 } from '../../test/s3rver.js';

const SCOPE = 'org_name=acme&project_name=vision';
const B = '/api/v1/buckets/buckets';

describe('the object API of buckets', () => {
  let s3: TestS3;
  let s: TestServer;
  let owner: TestUser;
  let reader: TestUser;
  let outsider: TestUser;
  let O: string;
  const url = (key: string, query = '') => `${O}/${key}?${SCOPE}${query}`;

  const put = (key: string, body: Buffer | string, who = owner) =>
    s.app.inject({
      method: 'PUT',
      url: url(key),
      headers: { ...who.headers, 'content-type': 'application/octet-stream' },
      payload: body,
    });
  const get = (key: string, who: TestUser | null = owner, headers: Record<string, string> = {}) =>
    s.app.inject({ method: 'GET', url: url(key), headers: { ...who?.headers, ...headers } });
  const list = async (query: string, who = owner) => {
    const r = await call(s, 'GET', `${O}?${SCOPE}&${query}`, who);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    return BucketObjectList.parse(r.body);
  };

  beforeAll(async () => {
    s3 = await startS3rver();
    s = await startTestServer(s3.env);
    ({ owner } = await tenancy(s));
    reader = await s.user();
    outsider = await s.user();
    await call(s, 'POST', '/api/v1/orgs', outsider, { name: 'elsewhere' });
    await call(s, 'POST', `/api/v1/users/${reader.username}/permissions`, owner, [
      { uri: 'blob://default/acme/vision/data', action: 'read' },
    ]);
    const created = await call(s, 'POST', B, owner, {
      name: 'data',
      org_name: 'acme',
      project_name: 'vision',
    });
    expect(created.status).toBe(201);
    O = `${B}/data/objects`;
  });
  afterAll(async () => {
    await s.stop();
    await s3.stop();
  });

  it('uploads a body and downloads the same bytes, whole or by range', async () => {
    const bytes = randomBytes(300_000);
    const up = await put('models/weights.bin', bytes);
    expect(up.statusCode, up.body).toBe(201);
    expect(BucketObject.parse(up.json())).toMatchObject({
      key: 'models/weights.bin',
      size: 300_000,
    });

    const down = await get('models/weights.bin');
    expect(down.statusCode).toBe(200);
    expect(down.rawPayload.equals(bytes)).toBe(true);
    expect(down.headers['content-type']).toBe('application/octet-stream');
    expect(down.headers['content-length']).toBe('300000');
    expect(down.headers['accept-ranges']).toBe('bytes');

    const part = await get('models/weights.bin', owner, { range: 'bytes=100-199' });
    expect(part.statusCode).toBe(206);
    expect(part.headers['content-range']).toBe('bytes 100-199/300000');
    expect(part.rawPayload.equals(bytes.subarray(100, 200))).toBe(true);
    const tail = await get('models/weights.bin', owner, { range: 'bytes=-10' });
    expect(tail.rawPayload.equals(bytes.subarray(-10))).toBe(true);
    const beyond = await get('models/weights.bin', owner, { range: 'bytes=300000-' });
    expect([beyond.statusCode, beyond.headers['content-range']]).toEqual([416, 'bytes */300000']);
  });

  it('keeps the previous object when an upload fails midway', async () => {
    expect((await put('models/config.json', '{"v":1}')).statusCode).toBe(201);
    // Past one multipart part (8 MiB), then the body breaks, as when the client goes away.
    const broken = Readable.from(
      (async function* () {
        yield Buffer.alloc(9 * 1024 * 1024, 1);
        throw new Error('connection lost');
      })(),
    );
    const r = await s.app
      .inject({
        method: 'PUT',
        url: url('models/config.json'),
        headers: { ...owner.headers, 'content-type': 'application/octet-stream' },
        payload: broken,
      })
      .catch((e: Error) => e);
    expect(r instanceof Error ? 'failed' : r.statusCode).not.toBe(201);
    expect((await get('models/config.json')).body).toBe('{"v":1}');
    expect((await call(s, 'DELETE', url('models/config.json'), owner)).status).toBe(200);
  });

  it('serves text inline as plain text, never as a page, and an empty object as empty', async () => {
    expect((await put('notes/readme.html', '<script>alert(1)</script>')).statusCode).toBe(201);
    const html = await get('notes/readme.html');
    expect(html.headers['content-type']).toBe('application/octet-stream');
    expect(html.headers['content-security-policy']).toBe('sandbox');
    expect((await put('notes/a.txt', 'hello')).statusCode).toBe(201);
    expect((await get('notes/a.txt')).headers['content-type']).toBe('text/plain; charset=utf-8');
    expect((await put('notes/empty.csv', '')).statusCode).toBe(201);
    const empty = await get('notes/empty.csv');
    expect([empty.statusCode, empty.body]).toEqual([200, '']);
    expect((await get('notes/missing.txt')).statusCode).toBe(404);
  });

  it('lists one folder with the delimiter, everything below without it, page by page', async () => {
    expect((await put('tables/', '')).statusCode).toBe(201);
    expect((await put('views/', 'content')).statusCode).toBe(400);
    const top = await list('delimiter=/');
    expect(top.folders).toEqual(['models/', 'notes/', 'tables/']);
    expect(top.objects).toEqual([]);
    expect([top.permission, top.next_continuation_token]).toEqual(['manage', null]);

    const notes = await list('delimiter=/&prefix=notes/');
    expect(notes.objects.map((o) => o.key)).toEqual([
      'notes/a.txt',
      'notes/empty.csv',
      'notes/readme.html',
    ]);
    expect(notes.objects[0]).toMatchObject({ size: 5 });
    expect(new Date(notes.objects[0].last_modified).getTime()).toBeGreaterThan(0);
    // The folder's own marker is not listed as an entry of it.
    expect((await list('delimiter=/&prefix=tables/')).objects).toEqual([]);

    const first = await list('max_keys=2');
    expect(first.objects.map((o) => o.key)).toEqual(['models/weights.bin', 'notes/a.txt']);
    const token = encodeURIComponent(first.next_continuation_token!);
    const second = await list(`max_keys=10&continuation_token=${token}`);
    expect(second.objects.map((o) => o.key)).toEqual([
      'notes/empty.csv',
      'notes/readme.html',
      'tables/',
    ]);
    expect(second.next_continuation_token).toBeNull();
  });

  it('deletes an object, and a folder with everything below it', async () => {
    const one = await call(s, 'DELETE', url('notes/a.txt'), owner);
    expect([one.status, one.body]).toEqual([200, { deleted: 1 }]);
    expect((await get('notes/a.txt')).statusCode).toBe(404);
    expect((await call(s, 'DELETE', url('notes/a.txt'), owner)).status).toBe(404);

    const folder = await call(s, 'DELETE', url('notes/'), owner);
    expect([folder.status, folder.body]).toEqual([200, { deleted: 2 }]);
    expect((await list('delimiter=/')).folders).toEqual(['models/', 'tables/']);
    expect((await call(s, 'DELETE', url('notes/'), owner)).status).toBe(404);
  });

  it('refuses keys that would leave the bucket or name nothing', async () => {
    // Clients resolve a literal `a/../b` before sending; the encoded forms reach the server.
    const keys = ['a%2F..%2Fb', '..%2Fx', 'a%2F.%2Fb', 'a//b', '/etc', '%2Fetc', 'a%5Cb', 'a%00b'];
    for (const key of keys) {
      const r = await put(key, 'x');
      expect(r.statusCode, key).toBe(400);
      expect(r.json().message, key).toBe(OBJECT_KEY_INVALID);
    }
    expect((await put('', 'x')).statusCode).toBe(400);
    expect((await call(s, 'GET', `${O}?${SCOPE}&prefix=../`, owner)).status).toBe(400);
    expect((await list('delimiter=/')).folders).toEqual(['models/', 'tables/']);
  });

  it('lets a reader list and download but not change; others learn nothing', async () => {
    expect((await list('delimiter=/', reader)).permission).toBe('read');
    expect((await get('models/weights.bin', reader)).statusCode).toBe(200);
    expect((await put('x.txt', 'x', reader)).statusCode).toBe(403);
    expect((await call(s, 'DELETE', url('models/weights.bin'), reader)).status).toBe(403);
    for (const who of [outsider, null]) {
      const status = who ? 404 : 401;
      expect((await call(s, 'GET', `${O}?${SCOPE}`, who)).status).toBe(status);
      expect((await get('models/weights.bin', who)).statusCode).toBe(status);
      expect((await call(s, 'DELETE', url('models/weights.bin'), who)).status).toBe(status);
    }
    expect((await put('x.txt', 'x', outsider)).statusCode).toBe(404);
    expect((await call(s, 'GET', `${B}/nope/objects?${SCOPE}`, owner)).status).toBe(404);
  });

  it('accepts the token in the query of a download link only', async () => {
    const token = owner.headers.authorization.slice('Bearer '.length);
    const link = await s.app.inject({ url: url('models/weights.bin', `&token=${token}`) });
    expect(link.statusCode).toBe(200);
    const listing = await s.app.inject({ url: `${O}?${SCOPE}&token=${token}` });
    expect(listing.statusCode).toBe(401);
  });

  it('browses an imported S3 bucket with its own keys, and refuses gcp with the console’s text', async () => {
    const client = new S3Client({
      endpoint: s3.endpoint,
      region: 'us-east-1',
      forcePathStyle: true,
      credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
    });
    await client.send(new CreateBucketCommand({ Bucket: 'their-data' }));
    const imported = await call(s, 'POST', `${B}/import/external`, owner, {
      name: 'theirs',
      provider: 'aws',
      provider_bucket_name: 'their-data',
      credentials: {
        endpoint_url: s3.endpoint,
        region_name: 'us-east-1',
        access_key_id: 'S3RVER',
        secret_access_key: 'S3RVER',
      },
      org_name: 'acme',
      project_name: 'vision',
    });
    expect(imported.status).toBe(201);
    const theirs = `${B}/theirs/objects`;
    const up = await s.app.inject({
      method: 'PUT',
      url: `${theirs}/x.txt?${SCOPE}`,
      headers: owner.headers,
      payload: 'theirs',
    });
    expect(up.statusCode).toBe(201);
    const listed = BucketObjectList.parse((await call(s, 'GET', `${theirs}?${SCOPE}`, owner)).body);
    expect(listed.objects.map((o) => o.key)).toEqual(['x.txt']);

    await call(s, 'POST', `${B}/import/external`, owner, {
      name: 'archive',
      provider: 'gcp',
      provider_bucket_name: 'their-archive',
      credentials: { key_data: 'e30=' },
      org_name: 'acme',
      project_name: 'vision',
    });
    const wrongKeys = await call(s, 'POST', `${B}/import/external`, owner, {
      name: 'revoked',
      provider: 'minio',
      provider_bucket_name: 'their-data',
      credentials: {
        endpoint_url: s3.endpoint,
        // s3rver checks the key id (not the signature): an unknown one is refused with 403.
        access_key_id: 'REVOKED',
        secret_access_key: 'REVOKED',
      },
      org_name: 'acme',
      project_name: 'vision',
    });
    expect(wrongKeys.status).toBe(201);
    const refused = await call(s, 'GET', `${B}/revoked/objects?${SCOPE}`, owner);
    expect([refused.status, refused.body.message]).toEqual([
      409,
      'The provider refused access to bucket revoked',
    ]);

    const gcp = await call(s, 'GET', `${B}/archive/objects?${SCOPE}`, owner);
    expect([gcp.status, gcp.body.message]).toEqual([400, GCP_BUCKET_NOT_VIEWABLE]);
  });
});
