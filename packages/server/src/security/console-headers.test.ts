import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config.js';
import { createServer, type Server } from '../server.js';

/**
 * The console's pages and the identity provider, asked as a page of another site would ask
 * them: the console refuses to be framed by it and never lets the browser sniff an answer into
 * a script, and the provider answers it nothing that a script of that site may read.
 */
describe('the console and the provider against another site', () => {
  let s: Server;
  let dir: string;
  const EVIL = 'http://evil.example';
  const PUBLIC = 'https://orrery.example.com';

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'orrery-console-headers-'));
    const dist = join(dir, 'web');
    mkdirSync(join(dist, 'assets'), { recursive: true });
    writeFileSync(join(dist, 'index.html'), '<!doctype html><title>console</title>');
    writeFileSync(join(dist, 'assets', 'app-1.js'), 'console.log(1)');
    const config = loadConfig({
      ORRERY_DATA_DIR: join(dir, 'data'),
      ORRERY_PUBLIC_URL: PUBLIC,
      LOG_LEVEL: 'silent',
      ORRERY_ADMIN_PASSWORD: 'admin-password-1',
    });
    s = await createServer(config, { logger: false, webDist: dist, inMemory: true });
  });
  afterAll(async () => {
    await s?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const csp = (header: string | string[] | number | undefined) =>
    Object.fromEntries(
      String(header ?? '')
        .split(';')
        .map((d) => d.trim().split(/\s+/))
        .filter(([name]) => name)
        .map(([name, ...values]) => [name, values]),
    );

  it('a page of another site cannot frame the console, nor run anything but its own scripts in it', async () => {
    for (const url of ['/', '/jobs/job-1/logs?org=acme', '/index.html', '/auth/callback']) {
      const res = await s.app.inject({ url, headers: { accept: 'text/html' } });
      expect(res.statusCode, url).toBe(200);
      const policy = csp(res.headers['content-security-policy']);
      // Only the sign-in callback is framed, and only by the console itself (its silent sign-in).
      expect(policy['frame-ancestors'], url).toEqual(
        url === '/auth/callback' ? ["'self'"] : ["'none'"],
      );
      expect(policy['script-src'], url).toEqual(["'self'"]);
      expect(policy['object-src'], url).toEqual(["'none'"]);
      expect(policy['base-uri'], url).toEqual(["'self'"]);
      expect(res.headers['x-frame-options'], url).toBe(
        url === '/auth/callback' ? 'SAMEORIGIN' : 'DENY',
      );
      expect(res.headers['x-content-type-options'], url).toBe('nosniff');
      expect(res.headers['referrer-policy'], url).toBe('strict-origin-when-cross-origin');
    }
  });

  it('an API answer or a console file is never sniffed into a script or a page', async () => {
    for (const url of [
      '/api/v1/config',
      '/api/v1/nothing-here',
      '/assets/app-1.js',
      '/oidc/jwks',
    ]) {
      const res = await s.app.inject({ url });
      expect(res.headers['x-content-type-options'], url).toBe('nosniff');
    }
  });

  it('a script of another site reads nothing from /oidc/token: no CORS for its origin', async () => {
    const preflight = await s.app.inject({
      method: 'OPTIONS',
      url: '/oidc/token',
      headers: {
        origin: EVIL,
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'content-type',
      },
    });
    expect(preflight.headers['access-control-allow-origin']).toBeUndefined();
    expect(preflight.headers['access-control-allow-credentials']).toBeUndefined();
    expect(preflight.headers['access-control-allow-headers']).toBeUndefined();

    const post = await s.app.inject({
      method: 'POST',
      url: '/oidc/token',
      headers: { origin: EVIL, 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'grant_type=refresh_token&client_id=orrery-console&refresh_token=x',
    });
    expect(post.headers['access-control-allow-origin']).toBeUndefined();
    expect(post.headers['access-control-allow-credentials']).toBeUndefined();

    // Nor a local web page on the Vite dev server's port, on a server with a real name.
    for (const origin of ['http://localhost:5173', 'http://127.0.0.1:5173']) {
      const dev = await s.app.inject({
        method: 'OPTIONS',
        url: '/oidc/token',
        headers: { origin, 'access-control-request-method': 'POST' },
      });
      expect(dev.headers['access-control-allow-origin'], origin).toBeUndefined();
    }

    // The console's own origin still may (a white-label host's console calls it this way).
    const own = await s.app.inject({
      method: 'OPTIONS',
      url: '/oidc/token',
      headers: { origin: PUBLIC, 'access-control-request-method': 'POST' },
    });
    expect(own.headers['access-control-allow-origin']).toBe(PUBLIC);
    expect(own.headers['access-control-allow-credentials']).toBeUndefined();
  });
});
