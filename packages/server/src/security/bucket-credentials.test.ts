import { beforeAll, describe, expect, it } from 'vitest';
import { GetObjectCommand, PutObjectCommand, DeleteObjectCommand } from '@aws-sdk/client-s3';
import { type TestServer, type TestUser } from '../test/harness.js';
import { call, joinOrg, tenantServer } from '../test/fixtures.js';
import { clientFrom, type Keys, s3Outcome } from '../test/s3-credentials.js';

/**
 * Persistent bucket credentials attacked by project members with less than the credentials
 * would give: a reader looking for a writer's keys, and members whose role is lowered or who
 * are removed, still holding keys. Through the API and the embedded S3 endpoint with the SDK.
 */

const SCOPE = 'org_name=acme&project_name=vision';
const B = '/api/v1/buckets/buckets';
const C = '/api/v1/buckets/persistent_credentials';
const MEMBERS = '/apis/admin/v1/clusters/default/orgs/acme/projects/vision/users';

describe('persistent bucket credentials against project members', () => {
  let s: TestServer;
  let owner: TestUser;
  let bucket: { id: string };
  let Bucket: string;

  /** A new organization member added to the project with `role`, through the API. */
  async function member(role: 'reader' | 'writer') {
    const u = await joinOrg(s, await s.user(), 'user');
    const added = await call(s, 'POST', MEMBERS, owner, { user_name: u.username, role });
    expect(added.status).toBe(201);
    return u;
  }

  const credentials = (who: TestUser, readOnly: boolean, bucketId = bucket.id) =>
    call(s, 'POST', `${C}?${SCOPE}`, who, { bucket_ids: [bucketId], read_only: readOnly });

  tenantServer((x) => ({ s, owner } = x), {}, { listen: true });
  beforeAll(async () => {
    const made = await call(s, 'POST', B, owner, {
      name: 'data',
      org_name: 'acme',
      project_name: 'vision',
    });
    bucket = made.body;
    const keys = await credentials(owner, false);
    Bucket = keys.body.credentials[0].credentials.bucket_name;
    await clientFrom(keys.body.credentials[0].credentials).send(
      new PutObjectCommand({ Bucket, Key: 'kept.txt', Body: 'kept' }),
    );
  });

  it('a reader listing or reading credentials finds no key, so cannot write with a writer’s', async () => {
    const writer = await member('writer');
    const reader = await member('reader');
    const made = await credentials(writer, false);
    expect(made.status).toBe(201);
    const keys = made.body.credentials[0].credentials as Keys;
    // Shown once, to their maker, with everything an S3 client needs.
    expect(keys).toMatchObject({
      bucket_name: Bucket,
      endpoint_url: `${s.url}/s3`,
      region_name: 'us-east-1',
      access_key_id: made.body.id,
      secret_access_key: expect.any(String),
    });
    for (const who of [reader, writer, owner]) {
      const listed = await call(s, 'GET', `${C}?${SCOPE}`, who);
      const one = await call(s, 'GET', `${C}/${made.body.id}?${SCOPE}`, who);
      const nd = await s.app.inject({
        url: `${C}?${SCOPE}`,
        headers: { ...who.headers, accept: 'application/x-ndjson' },
      });
      expect([listed.status, one.status, nd.statusCode]).toEqual([200, 200, 200]);
      for (const body of [JSON.stringify(listed.body), JSON.stringify(one.body), nd.body]) {
        expect(body).toContain(made.body.id);
        expect(body).not.toContain(keys.secret_access_key);
        expect(body).not.toContain('secret_access_key');
      }
      // Names, modes and where the bucket is; no key.
      expect(one.body).toMatchObject({
        id: made.body.id,
        owner: writer.username,
        read_only: false,
        bucket_ids: [bucket.id],
        credentials: [
          {
            bucket_id: bucket.id,
            credentials: {
              bucket_name: Bucket,
              endpoint_url: `${s.url}/s3`,
              region_name: 'us-east-1',
            },
          },
        ],
      });
      expect(Object.keys(one.body.credentials[0].credentials).sort()).toEqual([
        'bucket_name',
        'endpoint_url',
        'region_name',
      ]);
    }
    // A reader may not delete someone else's credentials.
    expect((await call(s, 'DELETE', `${C}/${made.body.id}?${SCOPE}`, reader)).status).toBe(403);
  });

  it('a reader gets read-only keys of their own that never write, and never read-write ones', async () => {
    const reader = await member('reader');
    const rw = await credentials(reader, false);
    expect(rw.status).toBe(403);
    expect(rw.body.message).toMatch(/write access/);
    const ro = await credentials(reader, true);
    expect(ro.status).toBe(201);
    expect(ro.body).toMatchObject({ owner: reader.username, read_only: true });
    const theirs = clientFrom(ro.body.credentials[0].credentials);
    const got = await theirs.send(new GetObjectCommand({ Bucket, Key: 'kept.txt' }));
    expect(await got.Body!.transformToString()).toBe('kept');
    expect(
      await s3Outcome(theirs.send(new PutObjectCommand({ Bucket, Key: 'x', Body: 'x' }))),
    ).toBe('403 AccessDenied');
    expect(await s3Outcome(theirs.send(new DeleteObjectCommand({ Bucket, Key: 'kept.txt' })))).toBe(
      '403 AccessDenied',
    );
    // An imported bucket's keys are its provider's and write whatever read_only says.
    const imported = await call(s, 'POST', `${B}/import/external`, owner, {
      name: 'archive',
      provider: 'aws',
      provider_bucket_name: 'their-archive',
      credentials: { access_key_id: 'AKIAEXAMPLE', secret_access_key: 'imported-secret' },
      org_name: 'acme',
      project_name: 'vision',
    });
    expect(imported.status).toBe(201);
    const importedKeys = await credentials(reader, true, imported.body.id);
    expect(importedKeys.status).toBe(403);
    expect(JSON.stringify(importedKeys.body)).not.toContain('imported-secret');
    // Lists never show the imported keys either, even to the owner.
    const mine = await credentials(owner, true, imported.body.id);
    expect(mine.body.credentials[0].credentials.secret_access_key).toBe('imported-secret');
    const listed = await call(s, 'GET', `${C}?${SCOPE}`, owner);
    expect(JSON.stringify(listed.body)).not.toContain('imported-secret');
    // Their owner may delete them.
    expect((await call(s, 'DELETE', `${C}/${ro.body.id}?${SCOPE}`, reader)).status).toBe(204);
    expect(await s3Outcome(theirs.send(new GetObjectCommand({ Bucket, Key: 'kept.txt' })))).toBe(
      '403 InvalidAccessKeyId',
    );
  });

  it('credentials stop writing when their owner is made a reader, and stop working when the owner is removed', async () => {
    const writer = await member('writer');
    const reader = await member('reader');
    const w = clientFrom((await credentials(writer, false)).body.credentials[0].credentials);
    const r = clientFrom((await credentials(reader, true)).body.credentials[0].credentials);
    await w.send(new PutObjectCommand({ Bucket, Key: 'w.txt', Body: 'w' }));
    expect(
      (await call(s, 'PUT', `${MEMBERS}/${writer.username}`, owner, { role: 'reader' })).status,
    ).toBe(200);
    expect(await s3Outcome(w.send(new PutObjectCommand({ Bucket, Key: 'w.txt', Body: 'x' })))).toBe(
      '403 AccessDenied',
    );
    expect(await s3Outcome(w.send(new DeleteObjectCommand({ Bucket, Key: 'w.txt' })))).toBe(
      '403 AccessDenied',
    );
    const still = await w.send(new GetObjectCommand({ Bucket, Key: 'w.txt' }));
    expect(await still.Body!.transformToString()).toBe('w');
    await r.send(new GetObjectCommand({ Bucket, Key: 'kept.txt' }));
    for (const u of [writer, reader]) {
      expect((await call(s, 'DELETE', `${MEMBERS}/${u.username}`, owner)).status).toBe(204);
    }
    for (const client of [w, r]) {
      expect(await s3Outcome(client.send(new GetObjectCommand({ Bucket, Key: 'kept.txt' })))).toBe(
        '403 AccessDenied',
      );
    }
  });
});
