import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from './config.js';
import { createServer, type Server } from './server.js';

describe('server plumbing', () => {
  let s: Server;
  let dir: string;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'orrery-app-'));
    const dist = join(dir, 'web');
    mkdirSync(join(dist, 'assets'), { recursive: true });
    writeFileSync(join(dist, 'index.html'), '<!doctype html><title>console</title>');
    writeFileSync(join(dist, 'assets', 'app-1.js'), 'console.log(1)');
    const config = loadConfig({
      ORRERY_DATA_DIR: dir,
      LOG_LEVEL: 'silent',
      ORRERY_ADMIN_PASSWORD: 'admin-password-1',
    });
    s = await createServer(config, { logger: false, webDist: dist, inMemory: true });
  });
  afterAll(async () => {
    await s.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('reports health and readiness with the database engine', async () => {
    expect((await s.app.inject('/healthz')).json()).toEqual({ status: 'ok' });
    expect((await s.app.inject('/readyz')).json()).toEqual({ status: 'ready', database: 'pglite' });
  });

  it('exposes Prometheus metrics including request durations', async () => {
    await s.app.inject('/api/v1/config');
    const res = await s.app.inject('/metrics');
    expect(res.headers['content-type']).toMatch(/text\/plain/);
    expect(res.body).toMatch(
      /orrery_http_request_duration_seconds_bucket\{.*route="\/api\/v1\/config"/,
    );
    expect(res.body).toMatch(/process_cpu_user_seconds_total/);
  });

  it('serves an OpenAPI document generated from the contract, browsable at /api/docs', async () => {
    const doc = (await s.app.inject('/api/docs/json')).json();
    expect(doc.openapi).toMatch(/^3\./);
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining([
        '/api/v1/config',
        '/api/v1/orgs',
        '/api/v1/projects',
        '/api/v1/users/{name}/permissions',
      ]),
    );
    const create = doc.paths['/api/v1/orgs'].post;
    expect(JSON.stringify(create.requestBody)).toContain('name');
    expect((await s.app.inject('/api/docs')).statusCode).toBeLessThan(400);
  });

  it('serves the console with an SPA fallback, but never for API paths', async () => {
    const deep = await s.app.inject({
      url: '/org-settings?org=acme',
      headers: { accept: 'text/html' },
    });
    expect(deep.statusCode).toBe(200);
    expect(deep.body).toContain('<title>console</title>');
    const asset = await s.app.inject('/assets/app-1.js');
    expect(asset.headers['cache-control']).toContain('immutable');
    expect((await s.app.inject('/assets/app-2.js')).statusCode).toBe(404);
    const api = await s.app.inject('/api/v1/nothing-here');
    expect(api.statusCode).toBe(404);
    expect(api.json()).toEqual({
      error: 'not_found',
      message: 'No route GET /api/v1/nothing-here',
    });
  });

  it('renders the user documentation at /docs/ and refuses paths outside it', async () => {
    const index = await s.app.inject('/docs/');
    expect(index.headers['content-type']).toMatch(/text\/html/);
    expect(index.body).toContain('<h1 id="orrery-documentation">Orrery documentation</h1>');
    expect((await s.app.inject('/docs/getting-started.md')).body).toContain('Create an account');
    expect((await s.app.inject('/docs/..%2FREADME.md')).statusCode).toBe(404);
    expect((await s.app.inject('/docs/nope.md')).statusCode).toBe(404);
  });

  it('answers malformed JSON with the one error shape', async () => {
    const res = await s.app.inject({
      method: 'POST',
      url: '/api/v1/orgs',
      headers: { 'content-type': 'application/json' },
      payload: '{',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error: 'bad_request' });
    expect(Object.keys(res.json())).toEqual(['error', 'message']);
  });
});
