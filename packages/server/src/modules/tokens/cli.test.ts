import { describe, expect, it } from 'vitest';
import { TOKEN_TEXTS } from '@orrery/contract';
import { type TestServer, type TestUser } from '../../test/harness.js';
import { bearer, call, projectMember, tenantServer } from '../../test/fixtures.js';
import { runTokens } from './cli.js';
import type { TokensArgs } from './cli-args.js';

const PROJECT = 'default/acme/vision';

describe('orrery tokens (the CLI on the database)', () => {
  let s: TestServer;
  let owner: TestUser;
  const run = (a: Partial<TokensArgs>) =>
    runTokens(s.ctx, { action: 'list', email: owner.email, project: PROJECT, ...a });
  tenantServer((x) => ({ s, owner } = x));

  it('creates, lists and revokes, and the token works until revoked', async () => {
    const out = await run({ action: 'create', name: 'nightly', role: 'reader', ttl: '7d' });
    const token = out.trim();
    const me = bearer(token);
    expect((await call(s, 'GET', '/api/v1/config', me)).body.projects).toHaveLength(1);
    const listed = await run({});
    expect(listed).toMatch(/^nightly\treader\tactive\t\S+\tnightly--[0-9a-f]{8}\n$/);
    expect(await run({ action: 'revoke', name: 'nightly' })).toBe(
      `${TOKEN_TEXTS.revoked('nightly')}\n`,
    );
    expect((await call(s, 'GET', '/api/v1/config', me)).body.authorized).toBe(false);
    expect(await run({})).toContain('\trevoked\t');
    await expect(run({ action: 'revoke', name: 'nightly' })).rejects.toThrow(TOKEN_TEXTS.notFound);
  });

  it('acts only for a project manager, as the API does', async () => {
    const writer = await projectMember(s, 'writer');
    const stranger = await s.user();
    await expect(run({ email: writer.email })).rejects.toThrow(
      `${writer.email} does not manage project ${PROJECT}`,
    );
    await expect(run({ email: stranger.email })).rejects.toThrow(`Project ${PROJECT} not found`);
    await expect(run({ email: 'nobody@example.test' })).rejects.toThrow('No user with e-mail');
  });

  it('says what is wrong with its arguments', async () => {
    await expect(run({ action: 'burn' })).rejects.toThrow('unknown action "burn"');
    await expect(run({ project: 'acme' })).rejects.toThrow('--project CLUSTER/ORG/PROJECT');
    await expect(run({ action: 'create' })).rejects.toThrow('--name is required');
    await expect(run({ action: 'create', name: 'Bad Name' })).rejects.toThrow(TOKEN_TEXTS.name);
    await expect(run({ action: 'create', name: 'ok-name', role: 'admin' })).rejects.toThrow(
      '--role is reader, writer or manager',
    );
    await expect(run({ action: 'create', name: 'ok-name', ttl: '400d' })).rejects.toThrow(
      TOKEN_TEXTS.expiryTooFar,
    );
  });
});
