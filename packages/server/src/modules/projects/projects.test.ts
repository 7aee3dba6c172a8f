import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../test/harness.js';
import { call, tenancy } from '../../test/fixtures.js';

describe('projects', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer();
  });
  afterAll(() => s.stop());

  it('creates a project with its creator as admin and the chosen default role', async () => {
    const u = await s.user();
    await call(s, 'POST', '/api/v1/orgs', u, { name: 'p-org' });
    const created = await call(s, 'POST', '/api/v1/projects', u, {
      name: 'first',
      org_name: 'p-org',
      cluster_name: 'default',
      is_default: true,
      default_role: 'reader',
    });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      name: 'first',
      org_name: 'p-org',
      cluster_name: 'default',
      role: 'admin',
      is_default: true,
      default_role: 'reader',
    });
    const got = await call(s, 'GET', '/api/v1/clusters/default/orgs/p-org/projects/first', u);
    expect(got.body).toEqual(created.body);
    const orgs = await call(s, 'GET', '/api/v1/orgs', u);
    expect(orgs.body.items[0].projects_count).toBe(1);
  });

  it.each([
    ['', 'Project name is required'],
    ['Has Space', 'Project name is invalid'],
  ])('rejects the name %j with "%s"', async (name, message) => {
    const { owner, org } = await tenancy(s, `v-${Math.random().toString(36).slice(2, 8)}`);
    const r = await call(s, 'POST', '/api/v1/projects', owner, {
      name,
      org_name: org,
      cluster_name: 'default',
    });
    expect(r.status).toBe(400);
    expect(r.body.errors[0]).toEqual({ path: 'name', message });
  });

  it('refuses a taken name and reports it through the exists check', async () => {
    const { owner, org, project } = await tenancy(s, 'dup-org', 'dup');
    const again = await call(s, 'POST', '/api/v1/projects', owner, {
      name: project,
      org_name: org,
      cluster_name: 'default',
    });
    expect(again.status).toBe(409);
    expect(again.body.errors[0].message).toBe('Project with such name already exits');
    const q = (name: string) =>
      `/api/v1/projects/exists?cluster_name=default&org_name=${org}&name=${name}`;
    expect((await call(s, 'GET', q('dup'), owner)).body).toEqual({ exists: true });
    expect((await call(s, 'GET', q('other'), owner)).body).toEqual({ exists: false });
  });

  it('keeps another organization’s projects out of reach (404)', async () => {
    const { org, project } = await tenancy(s, 'secret-org', 'hidden');
    const outsider = await s.user();
    await call(s, 'POST', '/api/v1/orgs', outsider, { name: 'outsider-org' });
    expect(
      (await call(s, 'GET', `/api/v1/clusters/default/orgs/${org}/projects/${project}`, outsider))
        .status,
    ).toBe(404);
    expect(
      (await call(s, 'GET', `/api/v1/clusters/default/orgs/${org}/projects`, outsider)).status,
    ).toBe(404);
    const create = await call(s, 'POST', '/api/v1/projects', outsider, {
      name: 'intruder',
      org_name: org,
      cluster_name: 'default',
    });
    expect(create.status).toBe(404);
    expect(
      (
        await call(
          s,
          'GET',
          `/api/v1/projects/exists?cluster_name=default&org_name=${org}&name=x`,
          outsider,
        )
      ).status,
    ).toBe(404);
  });

  it('refuses a cluster that is not linked to the organization', async () => {
    const u = await s.user();
    await call(s, 'POST', '/api/v1/orgs', u, { name: 'link-org' });
    const r = await call(s, 'POST', '/api/v1/projects', u, {
      name: 'x1',
      org_name: 'link-org',
      cluster_name: 'elsewhere',
    });
    expect(r.status).toBe(404);
  });

  it('lists every project to the organization manager and only their own to a member', async () => {
    const { owner, org } = await tenancy(s, 'list-org', 'alpha');
    await call(s, 'POST', '/api/v1/projects', owner, {
      name: 'beta',
      org_name: org,
      cluster_name: 'default',
    });
    const list = await call(s, 'GET', `/api/v1/clusters/default/orgs/${org}/projects`, owner);
    expect(list.body.items.map((p: { name: string }) => p.name)).toEqual(['alpha', 'beta']);
    expect(list.body.total).toBe(2);
  });
});
