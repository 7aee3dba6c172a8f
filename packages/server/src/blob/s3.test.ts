import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config.js';
import { startS3rver, type TestS3 } from '../test/s3rver.js';
import type { BlobBackend, Key } from './backend.js';
import { createS3Backend } from './s3.js';
import { Objects, s3Client } from './s3-objects.js';

const P = ['default', 'acme', 'vision'];
const k = (path: string): Key => [...P, ...path.split('/').filter(Boolean)];
const body = (b: string | Buffer) => Readable.from([Buffer.from(b)]);
const text = async (r: Readable) => {
  const chunks: Buffer[] = [];
  for await (const c of r) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
};
const names = async (b: BlobBackend, path: string) => {
  const out: string[] = [];
  for await (const e of b.list(k(path))) out.push(`${e.name}:${e.type}`);
  return out.sort();
};

describe('S3 file backend (against s3rver)', () => {
  let s3: TestS3;
  let b: BlobBackend;
  let objects: Objects;
  beforeAll(async () => {
    s3 = await startS3rver();
    const config = loadConfig({ ...s3.env, ORRERY_DATA_DIR: '/nonexistent' });
    b = createS3Backend(config.s3!, 'files', { rootDepth: 3 });
    objects = new Objects(s3Client(config.s3!), 'files');
    await b.mkdirs(P);
  });
  afterAll(() => s3.stop());

  it('writes at an offset: inside, at the end and beyond it (zero-filled)', async () => {
    await b.create(k('w.bin'), body('hello world'));
    expect(await b.write(k('w.bin'), 6, body('WORLD'))).toBe(5);
    expect((await text(await b.read(k('w.bin')))).toString()).toBe('hello WORLD');
    await b.write(k('w.bin'), 2, body('LL'));
    expect((await text(await b.read(k('w.bin')))).toString()).toBe('heLLo WORLD');
    await b.write(k('w.bin'), 13, body('!'));
    expect(await text(await b.read(k('w.bin')))).toEqual(Buffer.from('heLLo WORLD\0\0!'));
    await expect(b.write(k('none.bin'), 0, body('x'))).rejects.toMatchObject({ errno: 'ENOENT' });
  });

  it('uploads a body larger than one part as a multipart upload', async () => {
    const data = randomBytes(17 * 1024 * 1024 + 5);
    expect(await b.create(k('big/multi.bin'), Readable.from([data]))).toBe(data.length);
    expect((await b.stat(k('big/multi.bin')))?.size).toBe(data.length);
    const part = await text(await b.read(k('big/multi.bin'), { start: 9e6, end: 9e6 + 99 }));
    expect(part).toEqual(data.subarray(9e6, 9e6 + 100));
  });

  it('keeps the previous content when an upload fails', async () => {
    await b.create(k('keep.txt'), body('old'));
    // It fails once the backend reads on: before that nobody listens, and the error would be
    // the test's own uncaught exception (it was, on a busy machine).
    let sent = false;
    const failing = new Readable({
      read() {
        if (sent) setTimeout(() => this.destroy(new Error('aborted')), 20);
        else this.push('new');
        sent = true;
      },
    });
    await expect(b.create(k('keep.txt'), failing)).rejects.toThrow('aborted');
    expect((await text(await b.read(k('keep.txt')))).toString()).toBe('old');
  });

  it('keeps empty directories, and a directory whose last file went', async () => {
    await b.mkdirs(k('empty/inner'));
    expect(await names(b, 'empty')).toEqual(['inner:DIRECTORY']);
    expect(await names(b, 'empty/inner')).toEqual([]);
    await b.create(k('one/f'), body('f'));
    for await (const _ of b.remove(k('one/f'), false));
    expect((await b.stat(k('one')))?.type).toBe('DIRECTORY');
    expect(await names(b, 'one')).toEqual([]);
  });

  it('refuses what a file system refuses', async () => {
    await b.create(k('f.txt'), body('f'));
    await expect(b.mkdirs(k('f.txt'))).rejects.toMatchObject({ errno: 'EEXIST' });
    await expect(b.mkdirs(k('f.txt/x'))).rejects.toMatchObject({ errno: 'ENOTDIR' });
    await expect(b.create(k('f.txt/x'), body('x'))).rejects.toMatchObject({ errno: 'ENOTDIR' });
    await expect(b.create(k('empty'), body('x'))).rejects.toMatchObject({ errno: 'EISDIR' });
    await expect(b.read(k('empty'))).rejects.toMatchObject({ errno: 'EISDIR' });
    await expect(names(b, 'f.txt')).rejects.toMatchObject({ errno: 'ENOTDIR' });
    await expect(names(b, 'missing')).rejects.toMatchObject({ errno: 'ENOENT' });
  });

  it('renames folders with everything below them', async () => {
    await b.create(k('src/a.txt'), body('a'));
    await b.create(k('src/sub/b.txt'), body('b'));
    await b.mkdirs(k('src/hollow'));
    await b.rename(k('src'), k('dst'));
    expect(await b.stat(k('src'))).toBeNull();
    expect(await names(b, 'dst')).toEqual(['a.txt:FILE', 'hollow:DIRECTORY', 'sub:DIRECTORY']);
    expect((await text(await b.read(k('dst/sub/b.txt')))).toString()).toBe('b');
    await expect(b.rename(k('dst'), k('dst/sub/x'))).rejects.toMatchObject({ errno: 'EINVAL' });
    await expect(b.rename(k('dst'), k('one'))).resolves.toBeUndefined(); // empty: replaced
    await b.mkdirs(k('full/x'));
    await expect(b.rename(k('one'), k('full'))).rejects.toMatchObject({ errno: 'ENOTEMPTY' });
    await expect(b.rename(k('f.txt'), k('full'))).rejects.toMatchObject({ errno: 'EISDIR' });
    await expect(b.rename(k('full'), k('f.txt'))).rejects.toMatchObject({ errno: 'ENOTDIR' });
    await expect(b.rename(k('f.txt'), k('no/where'))).rejects.toMatchObject({ errno: 'ENOENT' });
  });

  // Objects put directly (faster than create, which checks the parents of each).
  it('removes a large folder in batches, children before their folder', async () => {
    for (let i = 0; i < 1005; i += 67) {
      const files = Array.from({ length: 67 }, (_, j) => `many/d${(i + j) % 3}/f${i + j}`);
      await Promise.all(files.map((f) => objects.put(k(f).join('/'), Buffer.from('x'))));
    }
    const removed: string[] = [];
    for await (const r of b.remove(k('many'), true)) removed.push(r.key.slice(3).join('/'));
    expect(removed).toHaveLength(1005 + 4);
    expect(removed.at(-1)).toBe('many');
    expect(removed.slice(-4, -1).sort()).toEqual(['many/d0', 'many/d1', 'many/d2']);
    expect(await b.stat(k('many'))).toBeNull();
  });

  it('reports the bytes stored and no capacity limit', async () => {
    const u = await b.usage();
    expect(u.used).toBeGreaterThan(17 * 1024 * 1024);
    expect(u.total).toBe(Number.MAX_SAFE_INTEGER);
    expect(u.used + u.free).toBe(u.total);
  });

  it("counts a project's bytes for storage charges, and none of its neighbour's", async () => {
    await b.create(['default', 'acme', 'visionary', 'x.bin'], body(Buffer.alloc(1000)));
    await b.create(k('bytes/one.bin'), body(Buffer.alloc(300)));
    await b.create(k('bytes/deep/two.bin'), body(Buffer.alloc(200)));
    expect(await b.bytes(k('bytes'))).toBe(500);
    expect(await b.bytes(['default', 'acme', 'visionary'])).toBe(1000);
    expect(await b.bytes(['default', 'acme', 'nothing-here'])).toBe(0);
  });
});
