import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer, type TestUser } from '../test/harness.js';

/**
 * Apolo's SDK prints a failure's `error` as its reason: for it (User-Agent `ApoloCLI/…`) the
 * message goes there, so that `apolo` shows why; every other client keeps `{error: code, message}`.
 */
describe('error bodies for Apolo SDK clients', () => {
  let s: TestServer;
  let u: TestUser;
  beforeAll(async () => {
    s = await startTestServer();
    u = await s.user();
  });
  afterAll(() => s?.stop());
  const get = (ua?: string) =>
    s.app.inject({
      method: 'GET',
      url: '/api/v1/no-such-thing',
      headers: { ...u.headers, ...(ua ? { 'user-agent': ua } : {}) },
    });

  it('the apolo CLI reads the message in error, the code in code', async () => {
    const r = await get('ApoloCLI/26.8.1 (linux)');
    expect(r.statusCode).toBe(404);
    const body = r.json();
    expect(body.code).toBe('not_found');
    expect(body.error).toBe(body.message);
    expect(body.error).toBe('No route GET /api/v1/no-such-thing');
  });

  it('other clients keep the code in error', async () => {
    const r = await get('curl/8.0');
    expect(r.statusCode).toBe(404);
    expect(r.json()).toMatchObject({ error: 'not_found' });
    expect(r.json().code).toBeUndefined();
  });
});
