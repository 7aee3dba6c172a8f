import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { User } from '@orrery/contract';
import { startTestServer, type TestServer } from '../../test/harness.js';
import { call, tenancy } from '../../test/fixtures.js';

describe('users', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer();
  });
  afterAll(() => s.stop());

  it('gives a user their profile with organizations, clusters, projects and system role', async () => {
    const { owner } = await tenancy(s);
    const r = await call(
      s,
      'GET',
      `/api/v1/users/${owner.username}?include=orgs&include=clusters&include=system_role&include=projects`,
      owner,
    );
    expect(r.status).toBe(200);
    User.parse(r.body);
    expect(r.body.username).toBe(owner.username);
    expect(r.body.system_role).toBeNull();
    expect(r.body.orgs).toEqual([
      { name: 'acme', role: 'admin', balance: { credits: null }, projects_count: 1 },
    ]);
    expect(r.body.clusters).toEqual([{ name: 'default', role: 'user', orgs: ['acme'] }]);
    expect(r.body.projects).toEqual([
      { name: 'vision', org_name: 'acme', cluster_name: 'default', role: 'admin' },
    ]);
  });

  it('records acceptance of the terms', async () => {
    const u = await s.user({ terms: false });
    expect((await call(s, 'GET', `/api/v1/users/${u.username}`, u)).body.terms_accepted).toBe(
      false,
    );
    const r = await call(s, 'PUT', `/api/v1/users/${u.username}/profile`, u, {
      terms_accepted: true,
      name: 'Ada',
      email: u.email,
    });
    expect(r.status).toBe(200);
    expect(r.body.terms_accepted).toBe(true);
    expect(r.body.name).toBe('Ada');
    expect(r.body.email_verified).toBe(true);
  });

  it('asks to verify a changed e-mail again and refuses one in use', async () => {
    const a = await s.user();
    const b = await s.user();
    const clash = await call(s, 'PUT', `/api/v1/users/${a.username}/profile`, a, {
      email: b.email,
    });
    expect(clash.status).toBe(409);
    const moved = await call(s, 'PUT', `/api/v1/users/${a.username}/profile`, a, {
      email: 'new-address@example.test',
    });
    expect(moved.body.email).toBe('new-address@example.test');
    expect(moved.body.email_verified).toBe(false);
    const mails = readdirSync(join(s.config.dataDir, 'outbox')).filter((f) =>
      f.includes('new-address'),
    );
    expect(mails).toHaveLength(1);
    const mail = readFileSync(join(s.config.dataDir, 'outbox', mails[0]), 'utf8').replace(
      /=\r?\n/g,
      '',
    );
    expect(mail).toContain('/oidc/verify?token=3D');
  });

  it('hides other users (404) except from a system admin, and needs a caller (401)', async () => {
    const a = await s.user();
    const b = await s.user();
    const admin = await s.user({ systemRole: 'admin' });
    expect((await call(s, 'GET', `/api/v1/users/${b.username}`, a)).status).toBe(404);
    expect(
      (await call(s, 'PUT', `/api/v1/users/${b.username}/profile`, a, { terms_accepted: true }))
        .status,
    ).toBe(404);
    expect(
      (await call(s, 'GET', `/api/v1/users/${b.username}?include=system_role`, admin)).body
        .username,
    ).toBe(b.username);
    expect((await call(s, 'GET', `/api/v1/users/${b.username}`)).status).toBe(401);
  });

  it('rejects a bad profile update with the field named', async () => {
    const u = await s.user();
    const r = await call(s, 'PUT', `/api/v1/users/${u.username}/profile`, u, {
      email: 'not-an-email',
    });
    expect(r.status).toBe(400);
    expect(r.body.errors[0].path).toBe('email');
  });
});
