import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CopyObjectCommand,
  CreateMultipartUploadCommand,
  DeleteObjectsCommand,
  GetObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  UploadPartCommand,
  type S3Client,
} from '@aws-sdk/client-s3';
import { startTestServer, type TestServer, type TestUser } from '../test/harness.js';
import { call, tenancy } from '../test/fixtures.js';
import {
  bodyText,
  clientFrom,
  editRequests,
  type Keys,
  s3Outcome,
} from '../test/s3-credentials.js';
import { KEY_FILE } from '../modules/secrets/key.js';

/**
 * The embedded S3 endpoint attacked with a real SDK, as a tenant holding only its own bucket's
 * credentials: two organizations, each with a bucket; organization B tries to reach A's objects
 * and the server's files through the S3 calls, and to make the endpoint answer 500.
 */

const B = '/api/v1/buckets/buckets';
const C = '/api/v1/buckets/persistent_credentials';

async function bucketOf(s: TestServer, who: TestUser, org: string, project: string) {
  const b = await call(s, 'POST', B, who, { name: 'data', org_name: org, project_name: project });
  expect(b.status).toBe(201);
  const c = await call(s, 'POST', `${C}?org_name=${org}&project_name=${project}`, who, {
    bucket_ids: [b.body.id],
    read_only: false,
  });
  expect(c.status).toBe(201);
  return c.body.credentials[0].credentials as Keys;
}

/**
 * A client whose request documents have `marker` replaced by `raw` after the SDK wrote them (it
 * escapes every `&` a caller gives) and before it signs them: what a hand-made request would send.
 */
function rawClient(keys: Keys, marker: string, raw: string) {
  const client = clientFrom(keys);
  editRequests(client, 'before', (r) => {
    if (typeof r.body === 'string' && r.body.includes(marker)) {
      r.body = r.body.replace(marker, raw);
      r.headers['content-length'] = String(Buffer.byteLength(r.body as string));
    }
  });
  return client;
}

describe('the embedded S3 endpoint against a hostile tenant', () => {
  let s: TestServer;
  let a: Keys;
  let b: Keys;
  let attacker: S3Client;
  let secretsKey: string;

  beforeAll(async () => {
    s = await startTestServer({}, { listen: true });
    const { owner: alice } = await tenancy(s, 'acme', 'vision');
    const { owner: mallory } = await tenancy(s, 'globex', 'lab');
    a = await bucketOf(s, alice, 'acme', 'vision');
    b = await bucketOf(s, mallory, 'globex', 'lab');
    await clientFrom(a).send(
      new PutObjectCommand({ Bucket: a.bucket_name, Key: 'private.txt', Body: 'acme only' }),
    );
    attacker = clientFrom(b);
    secretsKey = readFileSync(join(s.ctx.config.dataDir, KEY_FILE), 'utf8');
  });
  afterAll(() => s.stop());

  it('a part ETag with ../ cannot read secrets.key, another organization’s object or /etc/passwd (InvalidPart)', async () => {
    const Bucket = b.bucket_name;
    const targets = [
      `/../../../../${KEY_FILE}`,
      `/../../../${a.bucket_name}/private.txt`,
      `/../../../../../../../../../../../../etc/passwd`,
      `"1.0123456789abcdef0123456789abcdef/../../../../${KEY_FILE}"`,
    ];
    for (const [i, ETag] of targets.entries()) {
      const Key = `loot-${i}`;
      const { UploadId } = await attacker.send(new CreateMultipartUploadCommand({ Bucket, Key }));
      const part = await attacker.send(
        new UploadPartCommand({ Bucket, Key, UploadId, PartNumber: 1, Body: 'mine' }),
      );
      const forged = attacker.send(
        new CompleteMultipartUploadCommand({
          Bucket,
          Key,
          UploadId,
          MultipartUpload: { Parts: [{ PartNumber: 1, ETag }] },
        }),
      );
      expect(await s3Outcome(forged), ETag).toBe('400 InvalidPart');
      expect(await s3Outcome(attacker.send(new GetObjectCommand({ Bucket, Key }))), ETag).toBe(
        '404 NoSuchKey',
      );
      // A part the upload stored, named by another number, is not that part either.
      const renumbered = attacker.send(
        new CompleteMultipartUploadCommand({
          Bucket,
          Key,
          UploadId,
          MultipartUpload: { Parts: [{ PartNumber: 2, ETag: part.ETag }] },
        }),
      );
      expect(await s3Outcome(renumbered)).toBe('400 InvalidPart');
      // The upload itself still completes with the part it stored, as the server named it.
      await attacker.send(
        new CompleteMultipartUploadCommand({
          Bucket,
          Key,
          UploadId,
          MultipartUpload: { Parts: [{ PartNumber: 1, ETag: part.ETag }] },
        }),
      );
      expect(
        await bodyText((await attacker.send(new GetObjectCommand({ Bucket, Key }))).Body),
      ).toBe('mine');
    }
    // Nothing in the bucket holds a byte of what the ETags pointed at.
    const listed = await attacker.send(new ListObjectsV2Command({ Bucket }));
    for (const o of listed.Contents ?? []) {
      const got = await bodyText(
        (await attacker.send(new GetObjectCommand({ Bucket, Key: o.Key }))).Body,
      );
      expect(got).toBe('mine');
      expect(got).not.toContain(secretsKey.trim());
    }
    // Upload ids are the server's: one naming a path names no upload.
    for (const UploadId of [
      '../../../..',
      `../${a.bucket_name}`,
      '00000000-0000-0000-0000-0000000000/',
    ]) {
      expect(
        await s3Outcome(
          attacker.send(
            new UploadPartCommand({ Bucket, Key: 'x', UploadId, PartNumber: 1, Body: 'x' }),
          ),
        ),
      ).toBe('404 NoSuchUpload');
      expect(
        await s3Outcome(
          attacker.send(new AbortMultipartUploadCommand({ Bucket, Key: 'x', UploadId })),
        ),
      ).toBe('404 NoSuchUpload');
    }
  });

  it('an out-of-range character reference (&#99999999;) in an XML body answers 400 MalformedXML, not 500', async () => {
    const Bucket = b.bucket_name;
    for (const raw of ['&#99999999;', '&#x110000;', '&#0;', '&#xD800;', '&nope;', '&']) {
      const deleting = rawClient(b, 'MARKER', raw).send(
        new DeleteObjectsCommand({ Bucket, Delete: { Objects: [{ Key: 'MARKER' }] } }),
      );
      expect(await s3Outcome(deleting), raw).toBe('400 MalformedXML');
      const Key = 'entity';
      const { UploadId } = await attacker.send(new CreateMultipartUploadCommand({ Bucket, Key }));
      const completing = rawClient(b, 'MARKER', raw).send(
        new CompleteMultipartUploadCommand({
          Bucket,
          Key,
          UploadId,
          MultipartUpload: { Parts: [{ PartNumber: 1, ETag: 'MARKER' }] },
        }),
      );
      expect(await s3Outcome(completing), raw).toBe('400 MalformedXML');
      await attacker.send(new AbortMultipartUploadCommand({ Bucket, Key, UploadId }));
    }
    // References XML defines still work: the key `a&b<c` is deleted by name.
    await attacker.send(new PutObjectCommand({ Bucket, Key: 'a&b<c', Body: 'x' }));
    const done = await attacker.send(
      new DeleteObjectsCommand({ Bucket, Delete: { Objects: [{ Key: 'a&b<c' }] } }),
    );
    expect(done.Deleted?.map((d) => d.Key)).toEqual(['a&b<c']);
  });

  it('a copy source that is not URI encoding, or a signature of non-ASCII bytes, answers 4xx, not 500', async () => {
    const Bucket = b.bucket_name;
    expect(
      await s3Outcome(
        attacker.send(new CopyObjectCommand({ Bucket, Key: 'c', CopySource: '%E0%A4%A' })),
      ),
    ).toBe('400 InvalidArgument');
    // A signature as long as a real one in characters, longer in bytes.
    const now = new Date().toISOString().replace(/[-:]|\.\d{3}/g, '');
    const r = await fetch(`${b.endpoint_url}/${Bucket}`, {
      headers: {
        'x-amz-date': now,
        'x-amz-content-sha256': 'UNSIGNED-PAYLOAD',
        authorization:
          `AWS4-HMAC-SHA256 Credential=${b.access_key_id}/${now.slice(0, 8)}/us-east-1/s3/aws4_request, ` +
          `SignedHeaders=host;x-amz-date, Signature=${'0'.repeat(63)}\u00e9`,
      },
    });
    expect(r.status).toBe(403);
    expect(await r.text()).toContain('<Code>SignatureDoesNotMatch</Code>');
  });
});
