import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clusters } from '../db/schema.js';
import { startTestServer, type TestServer, type TestUser } from '../test/harness.js';
import { call, tenancy } from '../test/fixtures.js';

const A = '/apis/admin/v1';
const Q = 'org_name=acme&project_name=vision';

/** The four causes of 500 found by a hostile run, each a 400 with a message. */
describe('hostile input', () => {
  let s: TestServer;
  let owner: TestUser;
  let admin: TestUser;
  beforeAll(async () => {
    s = await startTestServer();
    admin = await s.user({ systemRole: 'admin' });
    ({ owner } = await tenancy(s));
    await s.ctx.db.insert(clusters).values({ name: 'lab' });
  });
  afterAll(() => s.stop());

  const raw = (method: string, url: string, who: TestUser | null, payload?: string) =>
    s.app.inject({
      method: method as 'GET',
      url,
      headers: {
        ...(who ? who.headers : {}),
        ...(payload !== undefined ? { 'content-type': 'application/json' } : {}),
      },
      ...(payload !== undefined ? { payload } : {}),
    });

  const NUL = 'contains a NUL character';
  it.each([
    ['a path', 'GET', `/api/v1/secrets/a%00b?${Q}`, undefined, 'params.key', NUL],
    [
      'a query',
      'GET',
      `/api/v1/secrets?org_name=ac%00me&project_name=vision`,
      undefined,
      'query.org_name',
      NUL,
    ],
    ['a query of a list', 'GET', `/api/v1/jobs?${Q}&name=a%00b`, undefined, 'query.name', NUL],
    ['a path of an org', 'GET', `/api/v1/orgs/ac%00me`, undefined, 'params.name', NUL],
    ['a JSON string', 'PUT', '/api/v1/users/ME/profile', '{"name":"Ada\\u0000"}', 'body.name', NUL],
    ['a JSON key', 'PUT', '/api/v1/users/ME/profile', '{"a\\u0000":1}', 'body', `${NUL} in a key`],
    [
      'a lone surrogate',
      'PUT',
      '/api/v1/users/ME/profile',
      '{"name":"\\ud800"}',
      'body.name',
      'is not valid Unicode',
    ],
  ])(
    'refuses bad text in %s with a 400 naming the field',
    async (_what, method, url, payload, field, problem) => {
      const res = await raw(method, url.replace('ME', owner.username), owner, payload);
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().errors[0].path).toBe(field);
      expect(res.json().message).toBe(`${field} ${problem}`);
    },
  );

  it('validates the body of POST /api/v1/secrets before the access check reads it', async () => {
    for (const bad of [{ org_name: 1 }, { project_name: { a: 1 } }, { org_name: null }]) {
      const r = await call(s, 'POST', '/api/v1/secrets', owner, {
        key: 'k',
        value: 'eA==',
        org_name: 'acme',
        project_name: 'vision',
        ...bad,
      });
      expect(r.status, JSON.stringify(r.body)).toBe(400);
    }
  });

  it('refuses a storage path segment too long for the file system with a 400', async () => {
    const long = 'x'.repeat(8000);
    const deep = Array(20).fill('y'.repeat(250)).join('/'); // each name fits, the whole does not
    const mk = await raw('PUT', `/api/v1/storage/acme/vision/${deep}?op=MKDIRS`, owner);
    expect(mk.statusCode, mk.body).toBe(400);
    expect(mk.json().message).toMatch(/too long/i);
    for (const [method, op] of [
      ['GET', 'GETFILESTATUS'],
      ['PUT', 'MKDIRS'],
      ['GET', 'LISTSTATUS'],
      ['GET', 'OPEN'],
    ]) {
      const res = await raw(method, `/api/v1/storage/acme/vision/${long}?op=${op}`, owner);
      expect(res.statusCode, `${op} ${res.body.slice(0, 200)}`).toBe(400);
      expect(res.json().message).toMatch(/too long/i);
    }
  });

  it('refuses a write offset beyond what a file can hold with a 400', async () => {
    const put = await raw('PUT', '/api/v1/storage/acme/vision/chunked.bin?op=CREATE', owner);
    expect(put.statusCode).toBe(201);
    for (const offset of [
      '99999999999999999999',
      String(2 ** 53),
      String(2 ** 62),
      String(2 ** 50),
    ]) {
      const res = await s.app.inject({
        method: 'PATCH',
        url: '/api/v1/storage/acme/vision/chunked.bin?op=WRITE',
        headers: {
          ...owner.headers,
          'content-type': 'application/octet-stream',
          'content-range': `bytes ${offset}-${offset}/*`,
        },
        payload: 'x',
      });
      expect(res.statusCode, `${offset}: ${res.body}`).toBe(400);
      expect(res.json().message).toMatch(/too large|offset/i);
    }
  });

  it('refuses numbers beyond what their columns hold, naming the field', async () => {
    const cases: [string, string, object, string][] = [
      [
        'POST',
        '/api/v1/clusters/default/orchestrator/resource_presets',
        { name: 'huge', cpu: 1, memory: 1e9, credits_per_hour: 1e308 },
        'credits_per_hour',
      ],
      [
        'POST',
        `${A}/clusters/lab/orgs`,
        { org_name: 'acme', quota: { total_running_jobs: 1e308 } },
        'quota.total_running_jobs',
      ],
      ['PATCH', `${A}/orgs/acme/balance`, { credits: '1'.repeat(17) }, 'credits'],
      ['PATCH', `${A}/orgs/acme/balance`, { additional_credits: `-${'9'.repeat(30)}` }, ''],
      [
        'PATCH',
        `${A}/clusters/default/storage_volumes/default`,
        { credits_per_hour_per_gb: '1e17' },
        'credits_per_hour_per_gb',
      ],
      [
        'PATCH',
        `${A}/clusters/default/disk_price`,
        { credits_per_day_per_gb: '1e17' },
        'credits_per_day_per_gb',
      ],
      [
        'POST',
        '/api/v1/disk',
        { storage: 1e9, life_span: 1e308, org_name: 'acme', project_name: 'vision' },
        'life_span',
      ],
    ];
    for (const [method, url, body, field] of cases) {
      const r = await call(s, method as 'POST', url, admin, body);
      expect(r.status, `${url} ${JSON.stringify(r.body)}`).toBe(400);
      expect(r.body.message, url).toMatch(/^Must be (at most|less than)/);
      if (field) expect(r.body.errors[0].path, url).toBe(field);
    }
  });

  it('answers 400, not 500, when the database refuses a value no schema could bound', async () => {
    // Each addition fits the column, their sum does not: the database's range error is the
    // caller's doing.
    const url = `${A}/orgs/acme/balance`;
    const max = '9'.repeat(16);
    expect((await call(s, 'PATCH', url, admin, { credits: max })).status).toBe(200);
    const over = await call(s, 'PATCH', url, admin, { additional_credits: max });
    expect(over.status, JSON.stringify(over.body)).toBe(400);
    expect(over.body.message).toMatch(/out of range/);
  });
});
