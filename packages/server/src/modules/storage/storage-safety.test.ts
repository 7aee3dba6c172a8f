import { mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { join } from 'node:path';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { type TestServer, type TestUser } from '../../test/harness.js';
import { call, tenantServer } from '../../test/fixtures.js';
import { redactUrl } from '../../observability/redact.js';

/** A request with the path sent byte for byte (fetch would normalise `..` and `%2e%2e`). */
function raw(s: TestServer, method: string, path: string, who: TestUser) {
  const url = new URL(s.url);
  return new Promise<{ status: number; body: string }>((resolve, reject) => {
    const req = httpRequest(
      { host: url.hostname, port: url.port, method, path, headers: who.headers },
      (res) => {
        let body = '';
        res.on('data', (c: Buffer) => (body += c.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      },
    );
    req.on('error', reject);
    req.end();
  });
}

describe('storage path safety and atomic uploads', () => {
  let s: TestServer;
  let owner: TestUser;
  let projectDir: string;
  const st = (method: string, path: string, query: string, body?: string, who = owner) =>
    fetch(`${s.url}/api/v1/storage/acme/vision/${path}?${query}`, {
      method,
      headers: who.headers,
      body,
    });

  tenantServer((x) => ({ s, owner } = x), {}, { listen: true });
  beforeAll(async () => {
    await call(s, 'POST', '/api/v1/projects', owner, {
      name: 'other',
      org_name: 'acme',
      cluster_name: 'default',
    });
    expect((await st('PUT', 'f.txt', 'op=CREATE', 'content')).status).toBe(201);
    projectDir = join(s.config.dataDir, 'storage', 'default', 'acme', 'vision');
  });

  it.each([
    ['..', '/api/v1/storage/acme/vision/../other/x?op=GETFILESTATUS'],
    ['%2e%2e', '/api/v1/storage/acme/vision/%2e%2e/other?op=LISTSTATUS'],
    ['%2E%2E in the middle', '/api/v1/storage/acme/vision/a/%2E%2E/%2E%2E/x?op=OPEN'],
    ['.', '/api/v1/storage/acme/vision/./f.txt?op=OPEN'],
    ['%2f', '/api/v1/storage/acme/vision/a%2f..%2f..%2fx?op=OPEN'],
    ['backslash', '/api/v1/storage/acme/vision/a%5c..%5cx?op=OPEN'],
    ['NUL', '/api/v1/storage/acme/vision/f.txt%00.png?op=OPEN'],
  ])('refuses %s in a path with 400', async (_name, path) => {
    const r = await raw(s, 'GET', path, owner);
    expect(r.status).toBe(400);
    expect(JSON.parse(r.body)).toMatchObject({ error: 'bad_request', errno: 'EINVAL' });
  });

  it('refuses a traversing rename destination', async () => {
    const r = await st('POST', 'f.txt', 'op=RENAME&destination=/acme/vision/../other/f.txt');
    expect(r.status).toBe(400);
  });

  it('never follows a symlink out of the project', async () => {
    symlinkSync('/etc', join(projectDir, 'etc-link'));
    symlinkSync('/etc/hostname', join(projectDir, 'hostname-link'));
    const otherDir = join(s.config.dataDir, 'storage', 'default', 'acme', 'other');
    mkdirSync(otherDir, { recursive: true });
    writeFileSync(join(otherDir, 'secret.txt'), 'other project');
    symlinkSync(otherDir, join(projectDir, 'other-link'));
    symlinkSync('/nonexistent-orrery-target', join(projectDir, 'dangling'));

    for (const [method, path, query] of [
      ['GET', 'etc-link/hostname', 'op=OPEN'],
      ['GET', 'etc-link', 'op=LISTSTATUS'],
      ['GET', 'hostname-link', 'op=OPEN'],
      ['GET', 'other-link/secret.txt', 'op=OPEN'],
      ['PUT', 'etc-link/planted', 'op=CREATE'],
      ['PUT', 'etc-link/dir', 'op=MKDIRS'],
      ['PUT', 'dangling', 'op=CREATE'],
      ['PATCH', 'hostname-link', 'op=WRITE'],
    ]) {
      const r = await fetch(`${s.url}/api/v1/storage/acme/vision/${path}?${query}`, {
        method,
        headers: { ...owner.headers, 'content-range': 'bytes 0-0/*' },
        body: method === 'GET' ? undefined : 'x',
      });
      expect(r.status, `${method} ${path}`).toBe(400);
      expect((await r.json()).errno, `${method} ${path}`).toBe('EACCES');
    }
    expect(readdirSync('/etc')).not.toContain('planted');
    // The links themselves are listed as links, and may be removed (never their targets).
    const list = await (await st('GET', '', 'op=LISTSTATUS')).json();
    const links = list.FileStatuses.FileStatus.filter(
      (f: { type: string }) => f.type === 'SYMLINK',
    );
    expect(links.map((f: { path: string }) => f.path).sort()).toEqual([
      'dangling',
      'etc-link',
      'hostname-link',
      'other-link',
    ]);
    expect((await st('DELETE', 'other-link', 'op=DELETE&recursive=true')).status).toBe(204);
    expect(readFileSync(join(otherDir, 'secret.txt'), 'utf8')).toBe('other project');
  });

  it('leaves nothing behind when an upload is aborted, and keeps the previous content', async () => {
    const url = new URL(s.url);
    const temps: string[] = [];
    const abort = (path: string) =>
      new Promise<void>((resolve) => {
        const req = httpRequest({
          host: url.hostname,
          port: url.port,
          method: 'PUT',
          path: `/api/v1/storage/acme/vision/${path}?op=CREATE`,
          headers: {
            ...owner.headers,
            'content-type': 'application/octet-stream',
            'content-length': String(4 * 1024 * 1024),
          },
        });
        req.on('error', () => resolve());
        req.write(Buffer.alloc(1024 * 1024, 1));
        // Mid-upload, the bytes so far are in a temporary file beside the target: wait for it
        // (a busy machine may take a while to open it), then drop the connection.
        const started = Date.now();
        const look = () => {
          const seen = readdirSync(projectDir).filter((n) => n.startsWith('.orrery-upload-'));
          if (seen.length === 0 && Date.now() - started < 10_000) return setTimeout(look, 50);
          temps.push(...seen);
          req.destroy();
          resolve();
        };
        setTimeout(look, 50);
      });
    await abort('partial.bin');
    await abort('f.txt');
    expect(temps).toHaveLength(2);
    // The server notices the closed socket asynchronously: its temporary files go then.
    const leftover = () => readdirSync(projectDir).filter((n) => n.startsWith('.orrery-upload-'));
    await vi.waitFor(() => expect(leftover()).toEqual([]), { timeout: 20_000 });
    expect((await st('GET', 'partial.bin', 'op=GETFILESTATUS')).status).toBe(404);
    expect(await (await st('GET', 'f.txt', 'op=OPEN')).text()).toBe('content');
    expect(leftover()).toEqual([]);
  });

  it('accepts ?token= on GET op=OPEN only, and keeps it out of logs', async () => {
    const base = `${s.url}/api/v1/storage/acme/vision/f.txt`;
    const q = `token=${encodeURIComponent(owner.token)}`;
    const opened = await fetch(`${base}?op=OPEN&${q}`);
    expect([opened.status, await opened.text()]).toEqual([200, 'content']);
    expect(opened.headers.get('content-security-policy')).toBe('sandbox');
    expect((await fetch(`${base}?op=GETFILESTATUS&${q}`)).status).toBe(401);
    expect((await fetch(`${base}?op=CREATE&${q}`, { method: 'PUT', body: 'x' })).status).toBe(401);
    expect((await fetch(`${base}?op=OPEN&token=not-a-token`)).status).toBe(401);
    expect(redactUrl(`/api/v1/storage/acme/vision/f.txt?op=OPEN&${q}`)).toBe(
      '/api/v1/storage/acme/vision/f.txt?op=OPEN&token=%5Bredacted%5D',
    );
  });
});
