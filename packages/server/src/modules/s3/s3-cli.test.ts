import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { startTestServer, type TestServer, type TestUser } from '../../test/harness.js';
import { call, tenancy } from '../../test/fixtures.js';
import { bucketWithKeys, type Keys } from '../../test/s3-credentials.js';

const AWS = '/usr/bin/aws';
const run = promisify(execFile);
const haveCli = existsSync(AWS);
if (!haveCli)
  process.stdout.write(`! ${AWS} (Debian's awscli) is not installed: aws CLI test skipped\n`);

/** Debian's `aws` with nothing but the credentials the console handed out. */
function aws(keys: Keys, home: string, ...args: string[]) {
  return run(AWS, ['--endpoint-url', keys.endpoint_url, ...args], {
    env: {
      PATH: process.env.PATH,
      HOME: home,
      AWS_ACCESS_KEY_ID: keys.access_key_id,
      AWS_SECRET_ACCESS_KEY: keys.secret_access_key,
      AWS_DEFAULT_REGION: keys.region_name,
      AWS_CONFIG_FILE: join(home, 'none'),
      AWS_SHARED_CREDENTIALS_FILE: join(home, 'none'),
      AWS_EC2_METADATA_DISABLED: 'true',
    },
    maxBuffer: 64 << 20,
  });
}

describe.skipIf(!haveCli)('the embedded S3 endpoint with Debian’s aws CLI', () => {
  let s: TestServer;
  let owner: TestUser;
  let home: string;
  let rw: Keys;
  let ro: Keys;
  let bucketId: string;

  beforeAll(async () => {
    s = await startTestServer({}, { listen: true });
    ({ owner } = await tenancy(s));
    home = await mkdtemp(join(tmpdir(), 'orrery-aws-'));
    const made = await bucketWithKeys(s, owner, 'cli');
    rw = made.keys;
    bucketId = made.bucket.id;
    const r = await call(
      s,
      'POST',
      '/api/v1/buckets/persistent_credentials?org_name=acme&project_name=vision',
      owner,
      {
        bucket_ids: [bucketId],
        read_only: true,
      },
    );
    ro = r.body.credentials[0].credentials;
  });
  afterAll(async () => {
    await s.stop();
    await rm(home, { recursive: true, force: true });
  });

  it('copies a 20 MB file up in parts and back, lists, presigns and removes it', async () => {
    const url = `s3://${rw.bucket_name}`;
    const big = Buffer.alloc(20 * 1024 * 1024);
    for (let i = 0; i < big.length; i += 4096) big.writeUInt32BE(i, i);
    await writeFile(join(home, 'big.bin'), big);
    // Above 8 MB the CLI uploads in parts: its debug log names each call it made.
    const up = await aws(
      rw,
      home,
      '--debug',
      's3',
      'cp',
      join(home, 'big.bin'),
      `${url}/runs/big.bin`,
    );
    expect(up.stderr).toContain('after-call.s3.UploadPart');
    expect(up.stderr).toContain('after-call.s3.CompleteMultipartUpload');
    const ls = await aws(rw, home, 's3', 'ls', `${url}/runs/`);
    expect(ls.stdout).toMatch(/\s20971520 big\.bin/);
    await aws(rw, home, 's3', 'cp', `${url}/runs/big.bin`, join(home, 'back.bin'));
    expect((await readFile(join(home, 'back.bin'))).equals(big)).toBe(true);

    // What the CLI uploaded is what the console's bucket browser shows.
    const listed = await call(
      s,
      'GET',
      `/api/v1/buckets/buckets/${bucketId}/objects?org_name=acme&project_name=vision&prefix=runs/&delimiter=/`,
      owner,
    );
    expect(listed.body.objects).toEqual([
      expect.objectContaining({ key: 'runs/big.bin', size: big.length }),
    ]);

    await writeFile(join(home, 'note.txt'), 'a note');
    await aws(rw, home, 's3', 'cp', join(home, 'note.txt'), `${url}/note.txt`);
    const { stdout: link } = await aws(rw, home, 's3', 'presign', `${url}/note.txt`);
    expect(await (await fetch(link.trim())).text()).toBe('a note');
    const tampered = link.trim().replace('note.txt', 'runs/big.bin');
    expect((await fetch(tampered)).status).toBe(403);

    await aws(rw, home, 's3', 'rm', `${url}/runs/big.bin`);
    expect((await aws(rw, home, 's3', 'ls', `${url}/`)).stdout).not.toContain('runs/');
  });

  it('refuses a read-only credential’s upload but lets it read', async () => {
    const url = `s3://${ro.bucket_name}`;
    await writeFile(join(home, 'x.txt'), 'x');
    await aws(rw, home, 's3', 'cp', join(home, 'x.txt'), `${url}/mine.txt`);
    const put = await aws(ro, home, 's3', 'cp', join(home, 'x.txt'), `${url}/x.txt`).catch(
      (e) => e,
    );
    expect(String(put.stderr)).toContain('AccessDenied');
    const ls = (await aws(ro, home, 's3', 'ls', `${url}/`)).stdout;
    expect([ls.includes('mine.txt'), ls.includes('x.txt')]).toEqual([true, false]);
  });
});
