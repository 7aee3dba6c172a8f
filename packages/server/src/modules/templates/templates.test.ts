import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { InputSchema } from '@orrery/contract';
import { startTestServer, type TestServer, type TestUser } from '../../test/harness.js';
import { call, projectMember, tenancy } from '../../test/fixtures.js';

const BASE = '/apis/apps/v1/cluster/default/org/acme/project/vision/templates';

describe('templates API (apolo-wire §12)', () => {
  let s: TestServer;
  let owner: TestUser;
  let reader: TestUser;
  let outsider: TestUser;
  beforeAll(async () => {
    s = await startTestServer();
    ({ owner } = await tenancy(s));
    reader = await projectMember(s, 'reader');
    outsider = await s.user();
    await call(s, 'POST', '/api/v1/orgs', outsider, { name: 'elsewhere' });
  });
  afterAll(() => s.stop());

  it('lists the newest version of every template, the job template among them', async () => {
    const r = await call(s, 'GET', BASE, reader);
    expect(r.status).toBe(200);
    expect(r.body).toContainEqual({
      name: 'job',
      title: 'Job',
      version: '1.0.0',
      short_description: expect.any(String),
      tags: ['job'],
    });
  });

  it('lists the versions of one template', async () => {
    const r = await call(s, 'GET', `${BASE}/job`, owner);
    expect(r.status).toBe(200);
    expect(r.body.map((v: { version: string }) => v.version)).toEqual(['1.0.0']);
  });

  it('serves the latest version with its input schema and description', async () => {
    const r = await call(s, 'GET', `${BASE}/job/latest`, reader);
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ name: 'job', version: '1.0.0', title: 'Job' });
    expect(r.body.description).toMatch(/job/);
    const input = r.body.input as InputSchema;
    expect(input.required).toEqual(['image', 'preset_name']);
    expect(input.properties?.image['x-type']).toBe('image');
    expect(input.properties?.preset_name['x-type']).toBe('preset');
    expect(input.properties?.restart_policy.enum).toEqual(['never', 'on-failure', 'always']);
    expect(input.properties?.http.anyOf?.map((o) => o.type)).toEqual(['null', 'object']);
  });

  it('keeps each form section of the job template in one run of properties', async () => {
    const r = await call(s, 'GET', `${BASE}/job/latest`, reader);
    const groups = Object.values(r.body.input.properties as Record<string, InputSchema>).map(
      (p) => p['x-group'],
    );
    const runs = groups.filter((g, i) => g !== groups[i - 1]);
    expect(new Set(runs).size).toBe(runs.length);
    expect(runs[0]).toBe('General');
  });

  it('serves a version by number, the same as latest', async () => {
    const latest = await call(s, 'GET', `${BASE}/job/latest`, reader);
    const exact = await call(s, 'GET', `${BASE}/job/1.0.0`, reader);
    expect(exact.status).toBe(200);
    expect(exact.body).toEqual(latest.body);
  });

  it('answers 404 for an unknown template or version', async () => {
    for (const url of [`${BASE}/nope`, `${BASE}/nope/latest`, `${BASE}/job/9.9.9`]) {
      const r = await call(s, 'GET', url, reader);
      expect(r.status, url).toBe(404);
      expect(r.body.error, url).toBe('not_found');
    }
  });

  it('answers 401 anonymously and 404 to another organization', async () => {
    expect((await call(s, 'GET', `${BASE}/job/latest`, null)).status).toBe(401);
    for (const url of [BASE, `${BASE}/job`, `${BASE}/job/latest`]) {
      expect((await call(s, 'GET', url, outsider)).status, url).toBe(404);
    }
  });
});
