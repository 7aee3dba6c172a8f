import { describe, expect, it } from 'vitest';
import { decodeJwt } from 'jose';
import { eq } from 'drizzle-orm';
import { TOKEN_TEXTS } from '@orrery/contract';
import { engine, type TestServer, type TestUser } from '../../test/harness.js';
import { bearer, call, projectMember, twoReplicas, tenantServer } from '../../test/fixtures.js';
import { projectTokens } from './tables.js';

const TOKENS = '/api/v1/clusters/default/orgs/acme/projects/vision/tokens';
const inDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString();

async function create(s: TestServer, who: TestUser, name: string, role = 'writer', days = 30) {
  const r = await call(s, 'POST', TOKENS, who, { name, role, expires_at: inDays(days) });
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  return r.body as { id: string; token: string; username: string };
}

describe('project tokens', () => {
  let s: TestServer;
  let owner: TestUser;
  tenantServer((x) => ({ s, owner } = x));

  it('creates a token shown once, keeps only its hash, and lists it without it', async () => {
    const created = await create(s, owner, 'ci-deploy', 'writer');
    expect(created).toMatchObject({
      name: 'ci-deploy',
      role: 'writer',
      created_by: owner.username,
      status: 'active',
      revoked_at: null,
    });
    expect(created.username).toMatch(/^ci-deploy--[0-9a-f]{8}$/);
    // The Apolo CLI reads the user name from the token without verifying it.
    expect(decodeJwt(created.token)['https://platform.neuromation.io/user']).toBe(created.username);
    const [row] = await s.ctx.db.select().from(projectTokens);
    expect(row.tokenHash).not.toContain(created.token);
    expect(JSON.stringify(row)).not.toContain(created.token.split('.')[2]);
    const list = await call(s, 'GET', TOKENS, owner);
    expect(list.status).toBe(200);
    expect(list.body).toHaveLength(1);
    expect(list.body[0]).not.toHaveProperty('token');
    expect(JSON.stringify(list.body)).not.toContain(created.token);
  });

  it('acts with its role in its project only, and names its cluster to the CLI', async () => {
    const { token, username } = await create(s, owner, 'reader-bot', 'reader');
    const me = bearer(token);
    const config = await call(s, 'GET', '/api/v1/config', me);
    expect(config.body.authorized).toBe(true);
    expect(config.body.projects).toEqual([
      { name: 'vision', role: 'reader', cluster_name: 'default', org_name: 'acme' },
    ]);
    expect(config.body.clusters.map((c: { name: string }) => c.name)).toEqual(['default']);
    expect(config.body.clusters[0].orgs).toEqual(['acme']);
    const secrets = '/api/v1/secrets?cluster_name=default&org_name=acme&project_name=vision';
    expect((await call(s, 'GET', secrets, me)).status).toBe(200);
    const write = await call(s, 'POST', '/api/v1/secrets', me, {
      key: 'k',
      value: 'dg==',
      cluster_name: 'default',
      org_name: 'acme',
      project_name: 'vision',
    });
    expect(write.status).toBe(403);
    // Not one of the project's people, and no say over tokens.
    const people = await call(
      s,
      'GET',
      '/apis/admin/v1/clusters/default/orgs/acme/projects/vision/users',
      owner,
    );
    expect(people.body.map((p: { user_name: string }) => p.user_name)).not.toContain(username);
    expect((await call(s, 'GET', TOKENS, me)).status).toBe(403);
  });

  it('is refused at once when revoked, and stays listed as revoked', async () => {
    const { id, token } = await create(s, owner, 'short-lived', 'manager');
    const secrets = '/api/v1/secrets?cluster_name=default&org_name=acme&project_name=vision';
    expect((await call(s, 'GET', secrets, bearer(token))).status).toBe(200);
    const revoked = await call(s, 'DELETE', `${TOKENS}/${id}`, owner);
    expect(revoked.status).toBe(200);
    expect(revoked.body.status).toBe('revoked');
    expect((await call(s, 'GET', secrets, bearer(token))).status).toBe(401);
    expect((await call(s, 'GET', '/api/v1/config', bearer(token))).body.authorized).toBe(false);
    // The name is free again.
    await create(s, owner, 'short-lived', 'reader');
  });

  it('works as the registry password', async () => {
    const { token, username } = await create(s, owner, 'pusher');
    const basic = (user: string) => ({
      authorization: `Basic ${Buffer.from(`${user}:${token}`).toString('base64')}`,
    });
    for (const user of ['token', username]) {
      const r = await s.app.inject({ method: 'GET', url: '/v2/', headers: basic(user) });
      expect(r.statusCode).not.toBe(401);
    }
    const other = await s.app.inject({ method: 'GET', url: '/v2/', headers: basic('someone') });
    expect(other.statusCode).toBe(401);
  });

  it('is refused once expired', async () => {
    const { id, token } = await create(s, owner, 'expiring');
    await s.ctx.db
      .update(projectTokens)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(projectTokens.id, id));
    expect((await call(s, 'GET', '/api/v1/config', bearer(token))).body.authorized).toBe(false);
    const listed = (await call(s, 'GET', TOKENS, owner)).body.find(
      (t: { id: string }) => t.id === id,
    );
    expect(listed.status).toBe('expired');
  });

  it('is for project managers: others get 403, strangers 404', async () => {
    const writer = await projectMember(s, 'writer');
    const stranger = await s.user();
    const body = { name: 'nope', role: 'reader', expires_at: inDays(1) };
    expect((await call(s, 'POST', TOKENS, writer, body)).status).toBe(403);
    expect((await call(s, 'GET', TOKENS, writer)).status).toBe(403);
    expect((await call(s, 'GET', TOKENS, stranger)).status).toBe(404);
    expect((await call(s, 'POST', TOKENS, null, body)).status).toBe(401);
    const manager = await projectMember(s, 'manager');
    await create(s, manager, 'by-manager', 'reader');
  });

  it.each([
    [{ name: 'Bad Name', role: 'reader', expires_at: inDays(1) }, TOKEN_TEXTS.name],
    [{ name: 'fine', role: 'admin', expires_at: inDays(1) }, undefined],
    [{ name: 'fine', role: 'reader', expires_at: inDays(-1) }, TOKEN_TEXTS.expiryPast],
    [{ name: 'fine', role: 'reader', expires_at: inDays(400) }, TOKEN_TEXTS.expiryTooFar],
    [{ name: 'fine', role: 'reader', expires_at: 'tomorrow' }, undefined],
  ])('refuses %j with a clear message', async (body, message) => {
    const r = await call(s, 'POST', TOKENS, owner, body);
    expect(r.status).toBe(400);
    if (message) expect(r.body.message).toBe(message);
  });

  it('refuses a second live token of one name, and unknown ids', async () => {
    await create(s, owner, 'twice');
    const again = await call(s, 'POST', TOKENS, owner, {
      name: 'twice',
      role: 'reader',
      expires_at: inDays(1),
    });
    expect(again.status).toBe(409);
    expect(again.body.message).toBe(TOKEN_TEXTS.nameTaken);
    const unknown = `${TOKENS}/00000000-0000-4000-8000-000000000000`;
    expect((await call(s, 'DELETE', unknown, owner)).status).toBe(404);
    expect((await call(s, 'DELETE', `${TOKENS}/not-a-uuid`, owner)).status).toBe(400);
  });
});

describe.runIf(engine === 'postgres')('project tokens on two replicas', () => {
  const r = twoReplicas();

  it('a token revoked through one replica is refused at once by the other', async () => {
    const { id, token } = await create(r.a, r.owner, 'replicated');
    expect((await call(r.b, 'GET', '/api/v1/config', bearer(token))).body.authorized).toBe(true);
    expect((await call(r.b, 'DELETE', `${TOKENS}/${id}`, r.owner)).status).toBe(200);
    expect((await call(r.a, 'GET', '/api/v1/config', bearer(token))).body.authorized).toBe(false);
    expect((await call(r.b, 'GET', '/api/v1/config', bearer(token))).body.authorized).toBe(false);
  });
});
