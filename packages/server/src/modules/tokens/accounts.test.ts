import { describe, expect, it } from 'vitest';
import { decodeJwt } from 'jose';
import { SERVICE_ACCOUNT_TEXTS, TOKEN_TEXTS } from '@orrery/contract';
import { engine, type TestServer, type TestUser } from '../../test/harness.js';
import { bearer, call, projectMember, twoReplicas, tenantServer } from '../../test/fixtures.js';

const SA = '/api/v1/service_accounts';
const TOKENS = '/api/v1/clusters/default/orgs/acme/projects/vision/tokens';
const JOBS = '/api/v1/jobs?cluster_name=default&org_name=acme&project_name=vision';
const WHERE = { default_cluster: 'default', default_org: 'acme', default_project: 'vision' };

describe('Apolo service accounts (on project tokens)', () => {
  let s: TestServer;
  let owner: TestUser;
  tenantServer((x) => ({ s, owner } = x));

  it('creates an account with its token shown once; it is one of the project tokens', async () => {
    const r = await call(s, 'POST', SA, owner, { name: 'ci-bot', ...WHERE });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    expect(r.body).toMatchObject({
      name: 'ci-bot',
      owner: owner.username,
      role: 'manager',
      ...WHERE,
    });
    expect(Object.keys(r.body).sort()).toEqual(
      [...Object.keys(WHERE), 'id', 'owner', 'name', 'role', 'created_at', 'token'].sort(),
    );
    expect(decodeJwt(r.body.token)['https://platform.neuromation.io/user']).toMatch(/^ci-bot--/);
    const tokens = await call(s, 'GET', TOKENS, owner);
    expect(tokens.body.map((t: { id: string }) => t.id)).toContain(r.body.id);
    const listed = await call(s, 'GET', SA, owner);
    const { token: _token, ...account } = r.body;
    expect(listed.body).toEqual([account]);
    for (const key of [r.body.id, 'ci-bot']) {
      const one = await call(s, 'GET', `${SA}/${key}`, owner);
      expect(one.status).toBe(200);
      expect(one.body).not.toHaveProperty('token');
      expect(one.body.id).toBe(r.body.id);
    }
  });

  it('works as a bearer token on the jobs API and is refused at once once deleted', async () => {
    const { body } = await call(s, 'POST', SA, owner, { name: 'runner', ...WHERE });
    const me = bearer(body.token);
    expect((await call(s, 'GET', JOBS, me)).status).toBe(200);
    expect((await call(s, 'DELETE', `${SA}/runner`, owner)).status).toBe(204);
    expect((await call(s, 'GET', JOBS, me)).status).toBe(401);
    expect((await call(s, 'GET', `${SA}/runner`, owner)).status).toBe(404);
    expect(
      (await call(s, 'GET', SA, owner)).body.map((a: { name: string }) => a.name),
    ).not.toContain('runner');
  });

  it('names one when asked with name null, and finds the project without default_org', async () => {
    const { default_org: _, ...noOrg } = WHERE;
    const r = await call(s, 'POST', SA, owner, { name: null, ...noOrg });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    expect(r.body.name).toMatch(/^sa-[0-9a-f]{8}$/);
    expect(r.body.default_org).toBe('acme');
  });

  it('is for project managers: a reader gets the engine 403, a stranger 404', async () => {
    const reader = await projectMember(s, 'reader');
    const denied = await call(s, 'POST', SA, reader, { name: 'nope', ...WHERE });
    expect(denied.status).toBe(403);
    expect(denied.body.message).toBe('You do not have permission to do this');
    const stranger = await s.user();
    const hidden = await call(s, 'POST', SA, stranger, { name: 'nope', ...WHERE });
    expect(hidden.status).toBe(404);
    expect(hidden.body.message).toBe(SERVICE_ACCOUNT_TEXTS.projectNotFound);
    // Another user's account is not theirs to read or delete.
    expect((await call(s, 'GET', `${SA}/ci-bot`, stranger)).status).toBe(404);
    expect((await call(s, 'DELETE', `${SA}/ci-bot`, reader)).status).toBe(404);
    expect((await call(s, 'GET', SA, null)).status).toBe(401);
    const manager = await projectMember(s, 'manager');
    expect((await call(s, 'POST', SA, manager, { name: 'mine', ...WHERE })).status).toBe(201);
  });

  it.each([
    [{ name: 'Bad Name', ...WHERE }, TOKEN_TEXTS.name],
    [{ name: 'fine', default_project: 'vision' }, undefined],
    [{ name: 'fine', default_cluster: 'default', default_project: '' }, undefined],
    [{ name: 7, ...WHERE }, undefined],
  ])('refuses %j with 400 and a clear message', async (body, message) => {
    const r = await call(s, 'POST', SA, owner, body);
    expect(r.status).toBe(400);
    expect(r.body.message).toBeTruthy();
    if (message) expect(r.body.message).toBe(message);
  });

  it('refuses a second account of one name (409), unknown projects and accounts (404)', async () => {
    await call(s, 'POST', SA, owner, { name: 'twice', ...WHERE });
    const again = await call(s, 'POST', SA, owner, { name: 'twice', ...WHERE });
    expect(again.status).toBe(409);
    expect(again.body.message).toBe(SERVICE_ACCOUNT_TEXTS.nameTaken);
    const ghost = await call(s, 'POST', SA, owner, { ...WHERE, default_project: 'ghost' });
    expect(ghost.status).toBe(404);
    expect(ghost.body.message).toBe(SERVICE_ACCOUNT_TEXTS.projectNotFound);
    const unknown = await call(s, 'DELETE', `${SA}/00000000-0000-4000-8000-000000000000`, owner);
    expect(unknown.status).toBe(404);
    expect(unknown.body.message).toBe(SERVICE_ACCOUNT_TEXTS.notFound);
  });
});

describe.runIf(engine === 'postgres')('service accounts on two replicas', () => {
  const r = twoReplicas();

  it('an account deleted through one replica is refused at once by the other', async () => {
    const { body } = await call(r.a, 'POST', SA, r.owner, { name: 'replicated', ...WHERE });
    expect((await call(r.b, 'GET', JOBS, bearer(body.token))).status).toBe(200);
    expect((await call(r.b, 'GET', `${SA}/replicated`, r.owner)).body.id).toBe(body.id);
    expect((await call(r.b, 'DELETE', `${SA}/replicated`, r.owner)).status).toBe(204);
    expect((await call(r.a, 'GET', JOBS, bearer(body.token))).status).toBe(401);
  });
});
