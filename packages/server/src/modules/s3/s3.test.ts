import { beforeAll, describe, expect, it } from 'vitest';
import { Readable } from 'node:stream';
import {
  CopyObjectCommand,
  DeleteObjectCommand,
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  ListBucketsCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  type S3Client,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { type TestServer, type TestUser } from '../../test/harness.js';
import { and, eq } from 'drizzle-orm';
import { call, projectMember, tenantServer } from '../../test/fixtures.js';
import { projectMembers } from '../../db/schema.js';
import {
  bucketWithKeys,
  clientFrom,
  editRequests,
  type Keys,
  s3Outcome,
  bodyText,
} from '../../test/s3-credentials.js';

const B = '/api/v1/buckets/buckets';
const C = '/api/v1/buckets/persistent_credentials';

describe('the embedded S3 endpoint with the AWS SDK', () => {
  let s: TestServer;
  let owner: TestUser;
  let rw: Keys;
  let ro: Keys;
  let other: Keys;
  let bucketId: string;
  let client: S3Client;

  tenantServer((x) => ({ s, owner } = x), {}, { listen: true });
  beforeAll(async () => {
    const made = await bucketWithKeys(s, owner, 'data');
    ({ keys: rw } = made);
    bucketId = made.bucket.id;
    const ros = await call(s, 'POST', `${C}?org_name=acme&project_name=vision`, owner, {
      bucket_ids: [bucketId],
      read_only: true,
    });
    ro = ros.body.credentials[0].credentials;
    ({ keys: other } = await bucketWithKeys(s, owner, 'other'));
    client = clientFrom(rw);
  });

  it('hands out credentials with the endpoint URL, region and keys of their own', () => {
    expect(rw).toMatchObject({
      endpoint_url: `${s.url}/s3`,
      region_name: 'us-east-1',
      bucket_name: expect.stringMatching(/^acme-vision-data-[0-9a-f]{8}$/),
    });
    expect(rw.access_key_id).not.toBe(ro.access_key_id);
    expect(rw.secret_access_key).not.toBe(ro.secret_access_key);
  });

  it('puts, gets, ranges, heads, copies and deletes objects', async () => {
    const Bucket = rw.bucket_name;
    await client.send(new PutObjectCommand({ Bucket, Key: 'a/b.txt', Body: 'hello world' }));
    // A stream body goes aws-chunked, with a trailing checksum.
    await client.send(
      new PutObjectCommand({
        Bucket,
        Key: 'a/streamed.txt',
        Body: Readable.from([Buffer.from('one '), Buffer.from('two')]),
        ContentLength: 7,
      }),
    );
    const got = await client.send(new GetObjectCommand({ Bucket, Key: 'a/b.txt' }));
    expect(await bodyText(got.Body)).toBe('hello world');
    expect(
      await bodyText(
        (await client.send(new GetObjectCommand({ Bucket, Key: 'a/streamed.txt' }))).Body,
      ),
    ).toBe('one two');
    const part = await client.send(
      new GetObjectCommand({ Bucket, Key: 'a/b.txt', Range: 'bytes=6-' }),
    );
    expect([await bodyText(part.Body), part.ContentRange]).toEqual(['world', 'bytes 6-10/11']);
    const head = await client.send(new HeadObjectCommand({ Bucket, Key: 'a/b.txt' }));
    expect(head.ContentLength).toBe(11);
    await client.send(
      new CopyObjectCommand({ Bucket, Key: 'c.txt', CopySource: `${Bucket}/a/b.txt` }),
    );
    expect(
      await bodyText((await client.send(new GetObjectCommand({ Bucket, Key: 'c.txt' }))).Body),
    ).toBe('hello world');
    await client.send(new DeleteObjectCommand({ Bucket, Key: 'c.txt' }));
    expect(await s3Outcome(client.send(new GetObjectCommand({ Bucket, Key: 'c.txt' })))).toBe(
      '404 NoSuchKey',
    );
    await client.send(
      new DeleteObjectsCommand({
        Bucket,
        Delete: { Objects: [{ Key: 'a/b.txt' }, { Key: 'a/streamed.txt' }] },
      }),
    );
    const left = await client.send(new ListObjectsV2Command({ Bucket }));
    expect(left.KeyCount).toBe(0);
  });

  it('lists the credentials’ bucket and its objects by prefix, delimiter and page', async () => {
    const Bucket = rw.bucket_name;
    expect((await client.send(new ListBucketsCommand({}))).Buckets?.map((b) => b.Name)).toEqual([
      Bucket,
    ]);
    await client.send(new HeadBucketCommand({ Bucket }));
    for (const Key of ['p/1', 'p/2', 'p/q/3', 'p-x', 'z']) {
      await client.send(new PutObjectCommand({ Bucket, Key, Body: Key }));
    }
    const folder = await client.send(
      new ListObjectsV2Command({ Bucket, Prefix: 'p/', Delimiter: '/' }),
    );
    expect(folder.Contents?.map((o) => o.Key)).toEqual(['p/1', 'p/2']);
    expect(folder.CommonPrefixes?.map((p) => p.Prefix)).toEqual(['p/q/']);
    // S3's order is the keys' bytes: "p-x" before "p/…".
    const keys: string[] = [];
    let ContinuationToken: string | undefined;
    do {
      const page = await client.send(
        new ListObjectsV2Command({ Bucket, MaxKeys: 2, ContinuationToken }),
      );
      expect(page.KeyCount).toBeLessThanOrEqual(2);
      keys.push(...(page.Contents ?? []).map((o) => o.Key!));
      ContinuationToken = page.NextContinuationToken;
    } while (ContinuationToken);
    expect(keys).toEqual(['p-x', 'p/1', 'p/2', 'p/q/3', 'z']);
  });

  it('uploads in parts and shows the object in the console’s bucket browser', async () => {
    const Bucket = rw.bucket_name;
    const big = Buffer.alloc(11 * 1024 * 1024, 7);
    await new Upload({
      client,
      params: { Bucket, Key: 'big/blob.bin', Body: big },
      partSize: 5 * 1024 * 1024,
    }).done();
    const head = await client.send(new HeadObjectCommand({ Bucket, Key: 'big/blob.bin' }));
    expect(head.ContentLength).toBe(big.length);
    const got = Buffer.from(
      await (
        await client.send(new GetObjectCommand({ Bucket, Key: 'big/blob.bin' }))
      ).Body!.transformToByteArray(),
    );
    expect(got.equals(big)).toBe(true);
    const listed = await call(
      s,
      'GET',
      `${B}/${bucketId}/objects?org_name=acme&project_name=vision&prefix=big/&delimiter=/`,
      owner,
    );
    expect(listed.body.objects).toEqual([
      expect.objectContaining({ key: 'big/blob.bin', size: big.length }),
    ]);
  });

  it('refuses writes with read-only credentials, other buckets, bad signatures and .. keys', async () => {
    const Bucket = rw.bucket_name;
    const reader = clientFrom(ro);
    expect(
      await s3Outcome(reader.send(new PutObjectCommand({ Bucket, Key: 'x', Body: 'x' }))),
    ).toBe('403 AccessDenied');
    expect(await s3Outcome(reader.send(new DeleteObjectCommand({ Bucket, Key: 'z' })))).toBe(
      '403 AccessDenied',
    );
    expect(
      await bodyText((await reader.send(new GetObjectCommand({ Bucket, Key: 'z' }))).Body),
    ).toBe('z');
    const elsewhere = clientFrom(other);
    expect(await s3Outcome(elsewhere.send(new GetObjectCommand({ Bucket, Key: 'z' })))).toBe(
      '403 AccessDenied',
    );
    expect(
      await s3Outcome(elsewhere.send(new PutObjectCommand({ Bucket, Key: 'z', Body: 'x' }))),
    ).toBe('403 AccessDenied');
    const forged = clientFrom(rw, 'not-the-secret');
    expect(await s3Outcome(forged.send(new GetObjectCommand({ Bucket, Key: 'z' })))).toBe(
      '403 SignatureDoesNotMatch',
    );
    expect(
      await s3Outcome(
        client.send(new PutObjectCommand({ Bucket, Key: 'a/../../escape', Body: 'x' })),
      ),
    ).toBe('400 InvalidArgument');
    expect(await s3Outcome(client.send(new GetObjectCommand({ Bucket, Key: '../other/z' })))).toBe(
      '400 InvalidArgument',
    );
  });

  it('refuses a body that is not the one signed, and keeps the previous object', async () => {
    const Bucket = rw.bucket_name;
    await client.send(new PutObjectCommand({ Bucket, Key: 'kept.txt', Body: 'original' }));
    const tamperer = clientFrom(rw);
    // Swaps the body after the SDK signed its SHA-256, as a man in the middle would.
    editRequests(tamperer, 'after', (request) => {
      request.body = 'tampered';
      request.headers['content-length'] = '8';
    });
    expect(
      await s3Outcome(
        tamperer.send(new PutObjectCommand({ Bucket, Key: 'kept.txt', Body: 'replaced' })),
      ),
    ).toBe('400 XAmzContentSHA256Mismatch');
    expect(
      await bodyText((await client.send(new GetObjectCommand({ Bucket, Key: 'kept.txt' }))).Body),
    ).toBe('original');
  });

  it('follows its owner’s permissions: a writer made reader writes no more, a leaver reads nothing', async () => {
    const Bucket = rw.bucket_name;
    const writer = await projectMember(s, 'writer');
    const made = await call(s, 'POST', `${C}?org_name=acme&project_name=vision`, writer, {
      bucket_ids: [bucketId],
      read_only: false,
    });
    expect(made.status).toBe(201);
    const theirs = clientFrom(made.body.credentials[0].credentials);
    // Longer than a route parameter's default limit; a segment above the file system's is refused.
    const long = `deep/${'k'.repeat(200)}/${'k'.repeat(200)}.txt`;
    expect(
      await s3Outcome(
        theirs.send(new PutObjectCommand({ Bucket, Key: 'k'.repeat(300), Body: 'w' })),
      ),
    ).toBe('400 KeyTooLongError');
    await theirs.send(new PutObjectCommand({ Bucket, Key: long, Body: 'w' }));
    expect(
      await bodyText((await theirs.send(new GetObjectCommand({ Bucket, Key: long }))).Body),
    ).toBe('w');
    const membership = and(eq(projectMembers.userId, writer.id), eq(projectMembers.role, 'writer'));
    await s.ctx.db.update(projectMembers).set({ role: 'reader' }).where(membership);
    expect(
      await s3Outcome(theirs.send(new PutObjectCommand({ Bucket, Key: 'w', Body: 'w' }))),
    ).toBe('403 AccessDenied');
    expect(
      await bodyText((await theirs.send(new GetObjectCommand({ Bucket, Key: long }))).Body),
    ).toBe('w');
    await s.ctx.db.delete(projectMembers).where(eq(projectMembers.userId, writer.id));
    expect(await s3Outcome(theirs.send(new GetObjectCommand({ Bucket, Key: long })))).toBe(
      '403 AccessDenied',
    );
  });

  it('refuses unsigned requests and revoked credentials', async () => {
    const r = await fetch(`${rw.endpoint_url}/${rw.bucket_name}/z`);
    expect(r.status).toBe(403);
    expect(await r.text()).toContain('<Code>AccessDenied</Code>');
    const extra = await bucketWithKeys(s, owner, 'gone');
    const listC = await call(s, 'GET', `${C}?org_name=acme&project_name=vision`, owner);
    const id = listC.body.find(
      (c: { bucket_ids: string[] }) => c.bucket_ids[0] === extra.bucket.id,
    ).id;
    expect(
      (await call(s, 'DELETE', `${C}/${id}?org_name=acme&project_name=vision`, owner)).status,
    ).toBe(204);
    expect(
      await s3Outcome(
        clientFrom(extra.keys).send(new ListObjectsV2Command({ Bucket: extra.keys.bucket_name })),
      ),
    ).toBe('403 InvalidAccessKeyId');
  });
});
