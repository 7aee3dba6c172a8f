import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateKeyPair, SignJWT } from 'jose';
import { startTestServer, type TestServer } from '../test/harness.js';
import { call } from '../test/fixtures.js';

/**
 * OIDC_ISSUER pointing at another provider, with no code change: here the "external" provider is
 * a second Orrery's built-in one, reached over HTTP for discovery and JWKS like Keycloak would be.
 */
describe('an external OpenID provider', () => {
  let idp: TestServer;
  let api: TestServer;
  beforeAll(async () => {
    idp = await startTestServer({}, { listen: true });
    api = await startTestServer({
      OIDC_ISSUER: `${idp.url}/oidc`,
      OIDC_CLIENT_ID: 'orrery-console',
      OIDC_AUDIENCE: idp.config.oidc.audience,
    });
  });
  afterAll(async () => {
    await api?.stop();
    await idp?.stop();
  });

  it('advertises the issuer’s endpoints from its discovery document', async () => {
    const { body } = await call(api, 'GET', '/api/v1/config');
    expect(body.issuer).toBe(`${idp.url}/oidc`);
    expect(body.auth_url).toBe(`${idp.url}/oidc/auth`);
    expect(body.token_url).toBe(`${idp.url}/oidc/token`);
  });

  it('accepts the issuer’s tokens and creates the user it names on first sight', async () => {
    const person = await idp.user({ username: 'grace', email: 'grace@example.test' });
    const config = await call(api, 'GET', '/api/v1/config', person);
    expect(config.body.authorized).toBe(true);
    const me = await call(api, 'GET', '/api/v1/users/grace', person);
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({ username: 'grace', email: 'grace@example.test' });
    const org = await call(api, 'POST', '/api/v1/orgs', person, { name: 'navy' });
    expect(org.status).toBe(201);
  });

  it('sends no verification mail of its own: the issuer verifies addresses', async () => {
    const person = await idp.user({ username: 'ada', email: 'ada@example.test', verified: false });
    const r = await call(api, 'POST', '/api/v1/users/ada/verification-mail', person);
    expect(r.status).toBe(409);
    expect(r.body.message).toBe(
      'E-mail addresses are verified by the identity provider of this installation',
    );
  });

  it('refuses a token signed by anyone else', async () => {
    const { privateKey } = await generateKeyPair('RS256');
    const forged = await new SignJWT({ identity: 'mallory', email: 'm@example.test' })
      .setProtectedHeader({ alg: 'RS256', kid: 'forged' })
      .setIssuer(`${idp.url}/oidc`)
      .setAudience(idp.config.oidc.audience)
      .setExpirationTime('1h')
      .sign(privateKey);
    const res = await api.app.inject({
      url: '/api/v1/orgs',
      headers: { authorization: `Bearer ${forged}` },
    });
    expect(res.statusCode).toBe(401);
  });

  it('does not mount the built-in provider', async () => {
    const res = await api.app.inject('/oidc/.well-known/openid-configuration');
    expect(res.statusCode).toBe(404);
  });
});
