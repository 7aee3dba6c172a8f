import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../test/harness.js';
import { call, tenancy } from '../../test/fixtures.js';

describe('permissions (shares)', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer();
  });
  afterAll(() => s.stop());

  it('lets a project admin share the project, and the grantee then reaches it', async () => {
    const { owner } = await tenancy(s);
    const friend = await s.user();
    const uri = 'project://default/acme/vision';
    const path = '/api/v1/clusters/default/orgs/acme/projects/vision';
    expect((await call(s, 'GET', path, friend)).status).toBe(404);
    const shared = await call(s, 'POST', `/api/v1/users/${friend.username}/permissions`, owner, [
      { uri, action: 'read' },
    ]);
    expect(shared.status).toBe(201);
    expect(shared.body).toEqual([{ uri, action: 'read' }]);
    expect((await call(s, 'GET', path, friend)).status).toBe(200);
    const mine = await call(
      s,
      'GET',
      `/api/v1/users/${friend.username}/permissions?uri=project://`,
      friend,
    );
    expect(mine.body).toContainEqual({ uri, action: 'read' });
    const list = await call(
      s,
      'GET',
      `/api/v1/users/${owner.username}/permissions/shared?uri=${encodeURIComponent(uri)}`,
      owner,
    );
    expect(list.body).toEqual([{ user: friend.username, uri, action: 'read' }]);

    // A reader may not pass the resource on.
    const third = await s.user();
    const reshare = await call(s, 'POST', `/api/v1/users/${third.username}/permissions`, friend, [
      { uri, action: 'read' },
    ]);
    expect(reshare.status).toBe(403);

    const revoked = await s.app.inject({
      method: 'DELETE',
      url: `/api/v1/users/${friend.username}/permissions?uri=${encodeURIComponent(uri)}`,
      headers: owner.headers,
    });
    expect(revoked.statusCode).toBe(204);
    expect((await call(s, 'GET', path, friend)).status).toBe(404);
  });

  it('answers 404 for another organization’s URI and 400 for a malformed one', async () => {
    await tenancy(s, 'other-org', 'p1');
    const stranger = await s.user();
    const victim = await s.user();
    const r = await call(s, 'POST', `/api/v1/users/${victim.username}/permissions`, stranger, [
      { uri: 'project://default/other-org/p1', action: 'read' },
    ]);
    expect(r.status).toBe(404);
    const bad = await call(s, 'POST', `/api/v1/users/${victim.username}/permissions`, stranger, [
      { uri: 'nonsense', action: 'read' },
    ]);
    expect(bad.status).toBe(400);
    const badAction = await call(
      s,
      'POST',
      `/api/v1/users/${victim.username}/permissions`,
      stranger,
      [{ uri: 'org://x', action: 'own' }],
    );
    expect(badAction.status).toBe(400);
  });

  it('refuses to list another user’s permissions', async () => {
    const a = await s.user();
    const b = await s.user();
    expect((await call(s, 'GET', `/api/v1/users/${b.username}/permissions`, a)).status).toBe(404);
    expect((await call(s, 'GET', `/api/v1/users/${b.username}/permissions`)).status).toBe(401);
  });
});
