import { createHash, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FileStatusList, FileStatusResponse, StorageUsage } from '@orrery/contract';
import { startTestServer, type TestServer, type TestUser } from '../../test/harness.js';
import { tenancy } from '../../test/fixtures.js';
import { STORAGE_BACKENDS, storageEnv } from '../../test/s3rver.js';

const MiB = 1024 * 1024;
const sha = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');

describe.each(STORAGE_BACKENDS)('storage operations over HTTP (%s backend)', (kind) => {
  let s: TestServer;
  let owner: TestUser;
  /** A storage call as the project's owner, the way the Apolo SDK makes it. */
  const st = (
    method: string,
    path: string,
    query: string,
    init: { headers?: Record<string, string>; body?: BodyInit } = {},
  ) =>
    fetch(`${s.url}/api/v1/storage/acme/vision/${path}${query ? `?${query}` : ''}`, {
      method,
      headers: { ...owner.headers, ...init.headers },
      body: init.body,
      ...(init.body instanceof ReadableStream ? { duplex: 'half' } : {}),
    } as RequestInit);
  const put = (path: string, body: BodyInit) =>
    st('PUT', path, 'op=CREATE', { body, headers: { 'content-type': 'application/octet-stream' } });

  let backend: Awaited<ReturnType<typeof storageEnv>>;
  beforeAll(async () => {
    backend = await storageEnv(kind);
    s = await startTestServer(backend.env, { listen: true });
    ({ owner } = await tenancy(s));
  });
  afterAll(async () => {
    await s.stop();
    await backend.stop();
  });

  it('makes directories and describes them', async () => {
    expect((await st('PUT', 'd/e', 'op=MKDIRS')).status).toBe(201);
    const r = await st('GET', 'd', 'op=GETFILESTATUS');
    expect(r.status).toBe(200);
    const { FileStatus } = FileStatusResponse.parse(await r.json());
    expect(FileStatus).toMatchObject({ path: '/acme/vision/d', type: 'DIRECTORY', length: 0 });
    expect(FileStatus.permission).toBe('manage');
    // The CLI sends octet-stream on empty-bodied requests; a directory already there is fine.
    const again = await st('PUT', 'd/e', 'op=MKDIRS', {
      headers: { 'content-type': 'application/octet-stream' },
    });
    expect(again.status).toBe(201);
  });

  it('creates, stats, lists (JSON and NDJSON) and opens files', async () => {
    expect((await put('d/a.txt', 'hello')).status).toBe(201);
    const stat = FileStatusResponse.parse(
      await (await st('GET', 'd/a.txt', 'GETFILESTATUS')).json(),
    );
    expect(stat.FileStatus).toMatchObject({
      path: '/acme/vision/d/a.txt',
      length: 5,
      type: 'FILE',
    });
    expect(stat.FileStatus.modificationTime).toBeGreaterThan(1.6e9);

    const json = FileStatusList.parse(await (await st('GET', 'd', 'op=LISTSTATUS')).json());
    expect(json.FileStatuses.FileStatus.map((f) => [f.path, f.type]).sort()).toEqual([
      ['a.txt', 'FILE'],
      ['e', 'DIRECTORY'],
    ]);
    const nd = await st('GET', 'd', 'op=liststatus', {
      headers: { accept: 'application/x-ndjson' },
    });
    expect(nd.headers.get('content-type')).toContain('application/x-ndjson');
    const lines = (await nd.text())
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines.map((l) => l.FileStatus.path).sort()).toEqual(['a.txt', 'e']);

    const opened = await st('GET', 'd/a.txt', 'op=OPEN');
    expect(opened.status).toBe(200);
    expect(await opened.text()).toBe('hello');
    expect(opened.headers.get('x-file-type')).toBe('FILE');
    expect(opened.headers.get('x-file-length')).toBe('5');
    expect(opened.headers.get('x-file-permission')).toBe('manage');
    expect(opened.headers.get('accept-range')).toBe('bytes');
    expect(opened.headers.get('last-modified')).toBeTruthy();
  });

  it('answers ranges with 206 and impossible ones with 416', async () => {
    const part = await st('GET', 'd/a.txt', 'op=OPEN', { headers: { range: 'bytes=1-3' } });
    expect(part.status).toBe(206);
    expect(part.headers.get('content-range')).toBe('bytes 1-3/5');
    expect(await part.text()).toBe('ell');
    const tail = await st('GET', 'd/a.txt', 'op=OPEN', { headers: { range: 'bytes=-2' } });
    expect(await tail.text()).toBe('lo');
    const open = await st('GET', 'd/a.txt', 'op=OPEN', { headers: { range: 'bytes=2-' } });
    expect([open.status, await open.text()]).toEqual([206, 'llo']);
    const bad = await st('GET', 'd/a.txt', 'op=OPEN', { headers: { range: 'bytes=10-' } });
    expect(bad.status).toBe(416);
    expect(bad.headers.get('content-range')).toBe('bytes */5');
  });

  it('answers HEAD with the headers and no body', async () => {
    const r = await st('HEAD', 'd/a.txt', '');
    expect(r.status).toBe(200);
    expect(r.headers.get('content-length')).toBe('5');
    expect(r.headers.get('x-file-type')).toBe('FILE');
    expect(await r.text()).toBe('');
    expect((await st('HEAD', 'd/missing', '')).status).toBe(404);
  });

  it('uploads in 1 MiB chunks the way the CLI does (CREATE, then PATCH WRITE)', async () => {
    const data = randomBytes(3 * MiB + 12345);
    expect((await put('big.bin', data.subarray(0, MiB))).status).toBe(201);
    for (let off = MiB; off < data.length; off += MiB) {
      const chunk = data.subarray(off, Math.min(off + MiB, data.length));
      const r = await st('PATCH', 'big.bin', 'op=WRITE', {
        body: chunk,
        headers: {
          'content-type': 'application/octet-stream',
          'content-range': `bytes ${off}-${off + chunk.length - 1}/*`,
        },
      });
      expect(r.status).toBe(200);
    }
    const back = new Uint8Array(await (await st('GET', 'big.bin', 'op=OPEN')).arrayBuffer());
    expect(back.length).toBe(data.length);
    expect(sha(back)).toBe(sha(data));
    const noRange = await st('PATCH', 'big.bin', 'op=WRITE', { body: 'x' });
    expect(noRange.status).toBe(400);
    const missing = await st('PATCH', 'nope.bin', 'op=WRITE', {
      body: 'x',
      headers: { 'content-range': 'bytes 0-0/*' },
    });
    expect(missing.status).toBe(404);
  });

  it('streams a large upload in one request, beyond the 1 MiB body limit', async () => {
    const data = randomBytes(3 * MiB);
    const body = new ReadableStream({
      start(c) {
        for (let off = 0; off < data.length; off += 64 * 1024)
          c.enqueue(data.subarray(off, off + 64 * 1024));
        c.close();
      },
    });
    expect((await put('stream.bin', body)).status).toBe(201);
    const back = new Uint8Array(await (await st('GET', 'stream.bin', 'op=OPEN')).arrayBuffer());
    expect(sha(back)).toBe(sha(data));
  });

  it('keeps any content type as raw bytes and accepts empty bodies', async () => {
    const j = await st('PUT', 'x.json', 'op=CREATE', {
      body: '{"a": 1}',
      headers: { 'content-type': 'application/json' },
    });
    expect(j.status).toBe(201);
    expect(await (await st('GET', 'x.json', 'op=OPEN')).text()).toBe('{"a": 1}');
    expect((await put('empty', new Uint8Array())).status).toBe(201);
    const e = await st('GET', 'empty', 'op=OPEN');
    expect([e.status, await e.text()]).toEqual([200, '']);
  });

  it('renames to an absolute or a sibling destination', async () => {
    await put('r/one.txt', '1');
    const r = await st('POST', 'r/one.txt', 'op=RENAME&destination=/acme/vision/r/two.txt');
    expect(r.status).toBe(204);
    const gone = await st('GET', 'r/one.txt', 'op=GETFILESTATUS');
    expect(gone.status).toBe(404);
    expect((await gone.json()).errno).toBe('ENOENT');
    expect((await st('POST', 'r/two.txt', 'op=RENAME&destination=three.txt')).status).toBe(204);
    expect(await (await st('GET', 'r/three.txt', 'op=OPEN')).text()).toBe('1');
    expect((await st('POST', 'r/none', 'op=RENAME&destination=x')).status).toBe(404);
  });

  it('deletes recursively, listing each removed entry as NDJSON', async () => {
    await put('gone/sub/x.txt', 'x');
    await put('gone/y.txt', 'y');
    const flat = await st('DELETE', 'gone', 'op=DELETE&recursive=false');
    expect(flat.status).toBe(400);
    expect((await flat.json()).errno).toBe('EISDIR');
    const r = await st('DELETE', 'gone', 'op=DELETE&recursive=true', {
      headers: { accept: 'application/x-ndjson' },
    });
    expect(r.status).toBe(200);
    const lines = (await r.text())
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines).toEqual(
      expect.arrayContaining([
        { path: '/acme/vision/gone/sub/x.txt', is_dir: false },
        { path: '/acme/vision/gone/sub', is_dir: true },
        { path: '/acme/vision/gone/y.txt', is_dir: false },
      ]),
    );
    expect(lines.at(-1)).toEqual({ path: '/acme/vision/gone', is_dir: true });
    expect((await st('GET', 'gone', 'op=GETFILESTATUS')).status).toBe(404);
    expect((await st('DELETE', 'gone', 'op=DELETE')).status).toBe(404);
    await put('plain.txt', 'p');
    expect((await st('DELETE', 'plain.txt', '')).status).toBe(204);
  });

  it('reports disk usage', async () => {
    const r = await st('GET', '', 'op=GETDISKUSAGE');
    const u = StorageUsage.parse(await r.json());
    expect(u.total).toBeGreaterThan(0);
    expect(u.used + u.free).toBeLessThanOrEqual(u.total);
  });

  it('answers errno on the errors the SDK maps to OSError', async () => {
    const onDir = await put('d', 'x');
    expect([onDir.status, (await onDir.json()).errno]).toEqual([400, 'EISDIR']);
    const onFile = await st('PUT', 'd/a.txt', 'op=MKDIRS');
    expect([onFile.status, (await onFile.json()).errno]).toEqual([400, 'EEXIST']);
    const notDir = await st('GET', 'd/a.txt', 'op=LISTSTATUS');
    expect([notDir.status, (await notDir.json()).errno]).toEqual([400, 'ENOTDIR']);
    const openDir = await st('GET', 'd', 'op=OPEN');
    expect([openDir.status, (await openDir.json()).errno]).toEqual([400, 'EISDIR']);
    const missing = await st('GET', 'nothing', 'op=LISTSTATUS');
    expect(await missing.json()).toMatchObject({ error: 'not_found', errno: 'ENOENT' });
    const illegal = await st('GET', 'd', 'op=EXPLODE');
    expect([illegal.status, (await illegal.json()).message]).toEqual([400, 'Illegal operation']);
    expect((await st('DELETE', '', 'op=DELETE')).status).toBe(400);
  });

  it('accepts a bare op parameter and uses the method default', async () => {
    const r = await st('GET', 'd', 'LISTSTATUS');
    expect(r.status).toBe(200);
    expect(await (await st('GET', 'd/a.txt', '')).text()).toBe('hello');
  });
});
