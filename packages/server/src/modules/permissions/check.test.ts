import { describe, expect, it } from 'vitest';
import { PERMISSION_CHECK_MAX } from '@orrery/contract';
import { type TestServer, type TestUser } from '../../test/harness.js';
import { call, joinOrg, projectMember, tenantServer } from '../../test/fixtures.js';
import { ONLY_ADMINS } from '../people/service.js';
import { NO_ACCESS, tooWeak } from './check.js';

const CHECK = '/api/v1/permissions/check';
const PROJECT_JOBS = 'job://default/acme/vision';

describe('permissions check (what the console may offer)', () => {
  let s: TestServer;
  let owner: TestUser;
  const check = (who: TestUser | null, items: unknown) => call(s, 'POST', CHECK, who, items);

  tenantServer((x) => ({ s, owner } = x));

  it('answers a reader and a writer each in the order asked, with the reason when not', async () => {
    const reader = await projectMember(s, 'reader');
    const writer = await projectMember(s, 'writer');
    const items = [
      { uri: PROJECT_JOBS, action: 'write' },
      { uri: 'project://default/acme/vision', action: 'read' },
      { uri: 'project://default/acme/vision', action: 'manage' },
    ];
    const asReader = await check(reader, items);
    expect(asReader.status).toBe(200);
    expect(asReader.body).toEqual([
      { ...items[0], allowed: false, reason: tooWeak('read', 'write') },
      { ...items[1], allowed: true, reason: null },
      { ...items[2], allowed: false, reason: tooWeak('read', 'manage') },
    ]);
    const asWriter = await check(writer, items);
    expect(asWriter.body.map((v: { allowed: boolean }) => v.allowed)).toEqual([true, true, false]);
    // The verdict is the route's: the reader's kill of a job in the project is refused.
    const job = await call(s, 'POST', '/api/v1/jobs?from_preset', writer, {
      cluster_name: 'default',
      org_name: 'acme',
      project_name: 'vision',
      preset_name: 'cpu-small',
      image: 'busybox',
      command: 'sleep 30',
    });
    expect(job.status).toBe(202);
    const [kill] = (await check(reader, [{ uri: job.body.uri, action: 'write' }])).body;
    expect(kill.allowed).toBe(false);
    expect((await call(s, 'DELETE', `/api/v1/jobs/${job.body.id}`, reader)).status).toBe(403);
    expect((await check(writer, [{ uri: job.body.uri, action: 'write' }])).body[0].allowed).toBe(
      true,
    );
    expect((await call(s, 'DELETE', `/api/v1/jobs/${job.body.id}`, writer)).status).toBe(204);
  });

  it('tells a stranger nothing about another organization: the same as for a missing one', async () => {
    const stranger = await s.user();
    const r = await check(stranger, [
      { uri: 'project://default/acme/vision', action: 'read' },
      { uri: 'project://default/no-such-org/p', action: 'read' },
      { uri: 'org://acme/users/' + owner.username, action: 'manage' },
      { uri: 'org://no-such-org/users/' + owner.username, action: 'manage' },
    ]);
    expect(r.status).toBe(200);
    for (const v of r.body) expect(v).toMatchObject({ allowed: false, reason: NO_ACCESS });
  });

  it('keeps the admin rules: an org manager may not edit or remove the org admin', async () => {
    const manager = await joinOrg(s, await s.user(), 'manager');
    const plain = await joinOrg(s, await s.user(), 'user');
    const [onAdmin, onUser] = (
      await check(manager, [
        { uri: `org://acme/users/${owner.username}`, action: 'manage' },
        { uri: `org://acme/users/${plain.username}`, action: 'manage' },
      ])
    ).body;
    expect(onAdmin).toMatchObject({ allowed: false, reason: ONLY_ADMINS });
    expect(onUser).toMatchObject({ allowed: true, reason: null });
    const A = '/apis/admin/v1/orgs/acme/users';
    expect((await call(s, 'DELETE', `${A}/${owner.username}`, manager)).status).toBe(403);
    const [byAdmin] = (
      await check(owner, [{ uri: `org://acme/users/${manager.username}`, action: 'manage' }])
    ).body;
    expect(byAdmin.allowed).toBe(true);
  });

  it('lets a disk’s owner delete it while other writers may not', async () => {
    const writer = await projectMember(s, 'writer');
    const other = await projectMember(s, 'writer');
    const disk = await call(s, 'POST', '/api/v1/disk', writer, {
      org_name: 'acme',
      project_name: 'vision',
      storage: 1000,
    });
    expect(disk.status).toBe(201);
    const ask = [{ uri: disk.body.uri, action: 'manage' }];
    expect((await check(writer, ask)).body[0]).toMatchObject({ allowed: true, reason: null });
    expect((await check(other, ask)).body[0]).toMatchObject({
      allowed: false,
      reason: tooWeak('write', 'manage'),
    });
    const Q = 'org_name=acme&project_name=vision';
    expect((await call(s, 'DELETE', `/api/v1/disk/${disk.body.id}?${Q}`, other)).status).toBe(403);
    expect((await call(s, 'DELETE', `/api/v1/disk/${disk.body.id}?${Q}`, writer)).status).toBe(204);
  });

  it('refuses anonymous callers and bad questions with a clear error', async () => {
    expect((await check(null, [{ uri: PROJECT_JOBS, action: 'read' }])).status).toBe(401);
    const badUri = await check(owner, [
      { uri: PROJECT_JOBS, action: 'read' },
      { uri: 'nonsense', action: 'read' },
    ]);
    expect(badUri.status).toBe(400);
    expect(badUri.body.errors).toEqual([
      { path: '1.uri', message: 'Invalid resource URI: nonsense' },
    ]);
    expect((await check(owner, [{ uri: PROJECT_JOBS, action: 'own' }])).status).toBe(400);
    expect((await check(owner, [])).status).toBe(400);
    expect((await check(owner, { uri: PROJECT_JOBS })).status).toBe(400);
    const many = Array.from({ length: PERMISSION_CHECK_MAX + 1 }, () => ({
      uri: PROJECT_JOBS,
      action: 'read',
    }));
    expect((await check(owner, many)).status).toBe(400);
  });
});
