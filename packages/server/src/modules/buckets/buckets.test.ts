import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GetObjectCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import {
  Bucket,
  BucketList,
  PersistentCredentials,
  PersistentCredentialsList,
} from '@orrery/contract';
import { startTestServer, type TestServer, type TestUser } from '../../test/harness.js';
import { call, ndjson, tenancy } from '../../test/fixtures.js';
import { startS3rver, type TestS3 } from '../../test/s3rver.js';
import { KEYS_NOT_SHARED } from './service.js';

const SCOPE = 'org_name=acme&project_name=vision';
const B = '/api/v1/buckets/buckets';
const C = '/api/v1/buckets/persistent_credentials';

/** An S3 client made only from what persistent credentials hand out. */
const clientFrom = (c: Record<string, string>) =>
  new S3Client({
    endpoint: c.endpoint_url,
    region: c.region_name,
    forcePathStyle: true,
    credentials: { accessKeyId: c.access_key_id, secretAccessKey: c.secret_access_key },
  });

describe('buckets and persistent credentials', () => {
  let s3: TestS3;
  let s: TestServer;
  let owner: TestUser;
  let reader: TestUser;
  let outsider: TestUser;

  beforeAll(async () => {
    s3 = await startS3rver();
    // A single-tenant deployment that accepts handing out the endpoint's key pair.
    s = await startTestServer({ ...s3.env, ORRERY_S3_SHARE_KEYS: 'true' });
    ({ owner } = await tenancy(s));
    reader = await s.user();
    outsider = await s.user();
    await call(s, 'POST', '/api/v1/orgs', outsider, { name: 'elsewhere' });
    await call(s, 'POST', `/api/v1/users/${reader.username}/permissions`, owner, [
      { uri: 'blob://default/acme/vision', action: 'read' },
    ]);
  });
  afterAll(async () => {
    await s.stop();
    await s3.stop();
  });

  const create = (name: string | null, who = owner) =>
    call(s, 'POST', B, who, { name, org_name: 'acme', project_name: 'vision' });

  it('creates a bucket on the S3 endpoint, lists it and reads it by id or name', async () => {
    const r = await create('data');
    expect(r.status).toBe(201);
    const b = Bucket.parse(r.body);
    expect(b).toMatchObject({
      name: 'data',
      owner: owner.username,
      provider: 'minio',
      imported: false,
      public: false,
      org_name: 'acme',
      project_name: 'vision',
      uri: 'blob://default/acme/vision/data',
    });
    expect(b.id).toMatch(/^bucket-[0-9a-f-]{36}$/);
    expect((await create('data')).status).toBe(409);
    expect((await create('Bad_Name')).status).toBe(400);
    const unnamed = await create(null);
    expect([unnamed.status, unnamed.body.name]).toEqual([201, null]);

    const list = BucketList.parse((await call(s, 'GET', `${B}?${SCOPE}`, owner)).body);
    expect(list.map((x) => x.name)).toEqual(['data', null]);
    const nd = await ndjson(s, `${B}?${SCOPE}`, owner);
    expect(nd.type).toContain('application/x-ndjson');
    expect(nd.items.map((x) => x.id)).toEqual(list.map((x) => x.id));
    expect((await call(s, 'GET', `${B}/${b.id}?${SCOPE}`, owner)).body.name).toBe('data');
    expect((await call(s, 'GET', `${B}/data?${SCOPE}`, owner)).body.id).toBe(b.id);
    const byPath = await call(s, 'GET', `${B}/find/by_path?path=acme/vision/data/x/y.csv`, owner);
    expect(byPath.body.id).toBe(b.id);
    expect((await call(s, 'GET', `${B}/nope?${SCOPE}`, owner)).status).toBe(404);
  });

  it('hands out credentials that really open the bucket, then deletes them', async () => {
    const bucket = (await call(s, 'GET', `${B}/data?${SCOPE}`, owner)).body;
    const r = await call(s, 'POST', `${C}?${SCOPE}`, owner, {
      name: 'laptop',
      bucket_ids: [bucket.id],
      read_only: false,
    });
    expect(r.status).toBe(201);
    const cred = PersistentCredentials.parse(r.body);
    expect(cred).toMatchObject({ name: 'laptop', owner: owner.username, read_only: false });
    expect(cred.bucket_ids).toEqual([bucket.id]);
    const keys = cred.credentials[0].credentials;
    expect(cred.credentials[0]).toMatchObject({ bucket_id: bucket.id, provider: 'minio' });
    expect(keys).toMatchObject({ endpoint_url: s3.endpoint, region_name: 'us-east-1' });
    expect(keys.bucket_name).toMatch(/^acme-vision-data-[0-9a-f]{8}$/);

    const client = clientFrom(keys);
    await client.send(new PutObjectCommand({ Bucket: keys.bucket_name, Key: 'k', Body: 'v' }));
    const got = await client.send(new GetObjectCommand({ Bucket: keys.bucket_name, Key: 'k' }));
    expect(await got.Body!.transformToString()).toBe('v');

    const dup = { name: 'laptop', bucket_ids: [bucket.id] };
    expect((await call(s, 'POST', `${C}?${SCOPE}`, owner, dup)).status).toBe(409);
    const unknown = { name: 'x', bucket_ids: ['bucket-nope'] };
    expect((await call(s, 'POST', `${C}?${SCOPE}`, owner, unknown)).status).toBe(404);
    const list = PersistentCredentialsList.parse(
      (await call(s, 'GET', `${C}?${SCOPE}`, owner)).body,
    );
    expect(list.map((c) => c.name)).toEqual(['laptop']);
    expect((await call(s, 'GET', `${C}/laptop?${SCOPE}`, reader)).body.id).toBe(cred.id);
    expect((await call(s, 'DELETE', `${C}/laptop?${SCOPE}`, reader)).status).toBe(403);
    expect((await call(s, 'DELETE', `${C}/laptop?${SCOPE}`, owner)).status).toBe(204);
    expect((await call(s, 'GET', `${C}/${cred.id}?${SCOPE}`, owner)).status).toBe(404);
  });

  it('imports an external bucket and hands out the credentials it was given', async () => {
    const r = await call(s, 'POST', `${B}/import/external`, owner, {
      name: 'archive',
      provider: 'gcp',
      provider_bucket_name: 'their-archive',
      credentials: { key_data: 'e30=' },
      org_name: 'acme',
      project_name: 'vision',
    });
    expect([r.status, r.body.imported, r.body.provider]).toEqual([201, true, 'gcp']);
    const cred = await call(s, 'POST', `${C}?${SCOPE}`, owner, {
      name: 'ro',
      bucket_ids: [r.body.id],
      read_only: true,
    });
    expect(cred.body.credentials[0].credentials).toEqual({
      bucket_name: 'their-archive',
      key_data: 'e30=',
    });
    expect((await call(s, 'DELETE', `${B}/archive?${SCOPE}`, owner)).status).toBe(204);
    const after = await call(s, 'GET', `${C}/ro?${SCOPE}`, owner);
    expect([after.body.bucket_ids, after.body.credentials]).toEqual([[], []]);
  });

  it('deletes a bucket with its objects at the provider', async () => {
    const bucket = (await call(s, 'GET', `${B}/data?${SCOPE}`, owner)).body;
    const cred = await call(s, 'POST', `${C}?${SCOPE}`, owner, { bucket_ids: [bucket.id] });
    const keys = cred.body.credentials[0].credentials;
    expect((await call(s, 'DELETE', `${B}/data?${SCOPE}`, reader)).status).toBe(403);
    expect((await call(s, 'DELETE', `${B}/data?${SCOPE}`, owner)).status).toBe(204);
    expect((await call(s, 'GET', `${B}/data?${SCOPE}`, owner)).status).toBe(404);
    const put = new PutObjectCommand({ Bucket: keys.bucket_name, Key: 'k', Body: 'v' });
    await expect(clientFrom(keys).send(put)).rejects.toMatchObject({ name: 'NoSuchBucket' });
  });

  it('lets readers list and read, and refuses everyone else', async () => {
    expect((await call(s, 'GET', `${B}?${SCOPE}`, reader)).status).toBe(200);
    expect((await call(s, 'GET', `${C}?${SCOPE}`, reader)).status).toBe(200);
    expect((await create('mine', reader)).status).toBe(403);
    // Credentials on this store carry its own key pair, which writes: not for readers, even
    // read-only ones (buckets we cannot see are not found).
    const someBucket = (await call(s, 'GET', `${B}?${SCOPE}`, reader)).body[0].id;
    const asReader = { org_name: 'acme', project_name: 'vision', read_only: true };
    expect(
      (await call(s, 'POST', C, reader, { ...asReader, bucket_ids: [someBucket] })).status,
    ).toBe(403);
    expect((await call(s, 'POST', C, reader, { ...asReader, bucket_ids: ['x'] })).status).toBe(404);
    for (const [method, url] of [
      ['GET', `${B}?${SCOPE}`],
      ['GET', `${C}?${SCOPE}`],
      ['GET', `${B}/data?${SCOPE}`],
    ] as const) {
      expect((await call(s, method, url, outsider)).status).toBe(404);
      expect((await call(s, method, url, null)).status).toBe(401);
    }
    expect((await create('theirs', outsider)).status).toBe(404);
  });
});

describe('bucket credentials by default', () => {
  let s3: TestS3;
  let s: TestServer;
  let owner: TestUser;
  beforeAll(async () => {
    s3 = await startS3rver();
    s = await startTestServer(s3.env);
    ({ owner } = await tenancy(s));
  });
  afterAll(async () => {
    await s.stop();
    await s3.stop();
  });

  it('refuses credentials that would carry the endpoint’s own keys', async () => {
    const bucket = await call(s, 'POST', B, owner, {
      name: 'data',
      org_name: 'acme',
      project_name: 'vision',
    });
    expect(bucket.status).toBe(201);
    const r = await call(s, 'POST', C, owner, {
      name: 'ci',
      bucket_ids: [bucket.body.id],
      read_only: true,
      org_name: 'acme',
      project_name: 'vision',
    });
    expect([r.status, r.body.message]).toEqual([422, KEYS_NOT_SHARED]);
    expect(r.body.errors[0].path).toBe('bucket_ids');
  });
});
