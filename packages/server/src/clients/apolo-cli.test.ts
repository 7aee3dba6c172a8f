import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestServer, type TestServer, type TestUser } from '../test/harness.js';
import { call, projectMember, tenancy } from '../test/fixtures.js';
import { apoloOf, describeClients } from '../test/apolo-cli.js';

/**
 * The official `apolo` CLI against a real server on the embedded defaults: its configuration,
 * storage, secrets, disks, buckets, sharing and administration commands, as a user of Apolo types
 * them (docs/apolo-clients.md). Jobs, images and apps are in the files beside this one.
 */
describeClients(
  'the official apolo CLI: config, storage, secrets, disks, buckets, acl, admin',
  () => {
    let s: TestServer;
    let owner: TestUser;
    let friend: TestUser;
    let admin: TestUser;
    let reader: TestUser;
    beforeAll(async () => {
      s = await startTestServer({ ORRERY_RUNTIME: 'process' }, { listen: true });
      owner = (await tenancy(s)).owner;
      friend = await s.user();
      admin = await s.user({ systemRole: 'admin' });
      reader = await projectMember(s, 'reader');
    });
    afterAll(() => s?.stop());
    const apolo = apoloOf(
      () => s,
      () => owner,
    );
    const root = apoloOf(
      () => s,
      () => admin,
    );
    const member = apoloOf(
      () => s,
      () => reader,
    );
    const local = mkdtempSync(join(tmpdir(), 'apolo-files-'));

    it('config show: the user, cluster, org, project, quotas and presets', async () => {
      const out = await apolo.ok(['config', 'show']);
      expect(out).toMatch(new RegExp(`User Name\\s+${owner.username}`));
      expect(out).toMatch(/Current Cluster\s+default/);
      expect(out).toMatch(/Current Org\s+acme/);
      expect(out).toMatch(/Current Project\s+vision/);
      expect(out).toMatch(/Credits Quota\s+unlimited/);
      expect(out).toMatch(/cpu-small\s+0\.5/);
    });

    it('config show: a project member who is not in the organization', async () => {
      const out = await member.ok(['config', 'show']);
      expect(out).toMatch(new RegExp(`User Name\\s+${reader.username}`));
      expect(out).toMatch(/Current Project\s+vision/);
    });

    it('storage: mkdir, cp both ways, ls, mv, tree, df, rm', async () => {
      writeFileSync(join(local, 'hello.txt'), 'hello from the client\n');
      await apolo.ok(['storage', 'mkdir', '-p', 'storage:work/inner']);
      await apolo.ok(['storage', 'cp', join(local, 'hello.txt'), 'storage:work/inner/hello.txt']);
      expect(await apolo.ok(['storage', 'ls', 'storage:work/inner'])).toContain('hello.txt');
      await apolo.ok(['storage', 'mv', 'storage:work/inner/hello.txt', 'storage:work/moved.txt']);
      const tree = await apolo.ok(['storage', 'tree', 'storage:work']);
      expect(tree).toContain('moved.txt');
      expect(tree).toContain('inner');
      await apolo.ok(['storage', 'cp', 'storage:work/moved.txt', join(local, 'back.txt')]);
      expect(readFileSync(join(local, 'back.txt'), 'utf8')).toBe('hello from the client\n');
      expect(await apolo.ok(['storage', 'df'])).toMatch(/Total:[\s\S]*Used:[\s\S]*Free:/);
      await apolo.ok(['storage', 'rm', '-r', 'storage:work']);
      const gone = await apolo.run(['storage', 'ls', 'storage:work']);
      expect(gone.code).not.toBe(0);
    });

    it('secret: add, ls, rm', async () => {
      await apolo.ok(['secret', 'add', 'api-key', 'not-for-logs']);
      const listed = await apolo.ok(['secret', 'ls']);
      expect(listed).toContain('api-key');
      expect(listed).not.toContain('not-for-logs');
      await apolo.ok(['secret', 'rm', 'api-key']);
      expect(await apolo.ok(['secret', 'ls'])).not.toContain('api-key');
    });

    it('disk: create, ls, get, rm', async () => {
      const made = await apolo.ok(['disk', 'create', '1G', '--name', 'scratch-disk']);
      const id = /disk-[0-9a-f-]{36}/.exec(made)?.[0];
      expect(id).toBeTruthy();
      expect(await apolo.ok(['disk', 'ls'])).toContain('scratch-disk');
      expect(await apolo.ok(['disk', 'get', 'scratch-disk'])).toMatch(/Storage\s+1\.0 GB/);
      await apolo.ok(['disk', 'rm', 'scratch-disk']);
      expect(await apolo.ok(['disk', 'ls'])).not.toContain('scratch-disk');
    });

    it('blob: mkbucket, lsbucket, statbucket, rmbucket', async () => {
      await apolo.ok(['blob', 'mkbucket', '--name', 'results']);
      expect(await apolo.ok(['blob', 'lsbucket'])).toContain('results');
      expect(await apolo.ok(['blob', 'statbucket', 'results'])).toMatch(/Name\s+results/);
      await apolo.ok(['blob', 'rmbucket', 'results']);
      expect(await apolo.ok(['blob', 'lsbucket'])).not.toContain('results');
    });

    it('acl: grant, ls, revoke a folder to another user', async () => {
      await apolo.ok(['storage', 'mkdir', '-p', 'storage:shared']);
      await apolo.ok(['acl', 'grant', 'storage:shared', friend.username, 'read']);
      const shares = await apolo.ok(['acl', 'ls', '--shared']);
      expect(shares).toContain(friend.username);
      expect(shares).toContain('shared');
      await apolo.ok(['acl', 'revoke', 'storage:shared', friend.username]);
      expect(await apolo.ok(['acl', 'ls', '--shared'])).not.toContain(friend.username);
      expect(await apolo.ok(['acl', 'ls'])).toContain('project://default/acme/vision');
    });

    it('admin reads: get-clusters, get-orgs, get-org-users, get-cluster-users, get-projects', async () => {
      const clusters = await apolo.ok(['admin', 'get-clusters']);
      expect(clusters).toContain('default');
      expect(clusters).toMatch(/local\s+2/);
      expect(await apolo.ok(['admin', 'get-orgs'])).toContain('acme');
      expect(await apolo.ok(['admin', 'get-org-users', 'acme'])).toContain(owner.username);
      expect((await apolo.run(['admin', 'get-cluster-users'])).code).toBe(0);
      expect(await apolo.ok(['admin', 'get-projects', 'default'])).toMatch(
        /vision\s+default\s+acme/,
      );
      expect(await root.ok(['admin', 'get-cluster-orgs', 'default'])).toContain('acme');
    });

    it('admin changes: org, project and cluster users, org and member credits, the org jobs quota', async () => {
      const proj = (cmd: string, ...rest: string[]) =>
        apolo.ok(['admin', cmd, 'default', 'vision', ...rest, '--org', 'acme']);
      await apolo.ok(['admin', 'add-org-user', 'acme', friend.username, 'user']);
      expect(await apolo.ok(['admin', 'get-org-users', 'acme'])).toContain(friend.username);
      await proj('add-project-user', friend.username, 'reader');
      expect(await proj('get-project-users')).toMatch(new RegExp(`${friend.username}.*reader`));
      await proj('update-project-user', friend.username, 'writer');
      expect(await proj('get-project-users')).toMatch(new RegExp(`${friend.username}.*writer`));
      await proj('remove-project-user', friend.username);
      expect(await proj('get-project-users')).not.toContain(friend.username);
      await apolo.ok([
        'admin',
        'add-cluster-user',
        'default',
        friend.username,
        'user',
        '--org',
        'acme',
      ]);
      expect(await apolo.ok(['admin', 'get-cluster-users', 'default', '--org', 'acme'])).toContain(
        friend.username,
      );
      await apolo.ok([
        'admin',
        'update-cluster-user',
        'default',
        friend.username,
        'manager',
        '--org',
        'acme',
      ]);
      await root.ok(['admin', 'add-org-credits', 'acme', '--credits', '10']);
      await root.ok(['admin', 'set-org-credits', 'acme', '--credits', '50']);
      await apolo.ok(['admin', 'set-user-credits', 'acme', friend.username, '--credits', '5']);
      await apolo.ok(['admin', 'add-user-credits', 'acme', friend.username, '--credits', '2.5']);
      expect(await apolo.ok(['admin', 'get-org-users', 'acme'])).toMatch(
        new RegExp(`${friend.username}.*7\\.50`),
      );
      // The resource quotas beside the jobs quota survive the CLI, which knows nothing of them.
      const gpus = { quota: { nvidia_gpu: 2, borrowing_limit: { nvidia_gpu: 1 } } };
      const quotaUrl = '/apis/admin/v1/clusters/default/orgs/acme/quota';
      expect((await call(s, 'PATCH', quotaUrl, admin, gpus)).status).toBe(200);
      await root.ok(['admin', 'set-org-cluster-quota', 'default', 'acme', '--jobs', '7']);
      expect(await root.ok(['admin', 'get-org-cluster-quota', 'default', 'acme'])).toMatch(
        /Jobs:\s+7/,
      );
      await root.ok(['admin', 'set-org-cluster-quota', 'default', 'acme', '--jobs', 'unlimited']);
      expect(await root.ok(['admin', 'get-org-cluster-quota', 'default', 'acme'])).toMatch(
        /Jobs:\s+unlimited/,
      );
      expect(
        (await call(s, 'GET', '/apis/admin/v1/clusters/default/orgs/acme', admin)).body.quota,
      ).toMatchObject({ nvidia_gpu: 2, borrowing_limit: { nvidia_gpu: 1 } });
      expect(await root.ok(['admin', 'get-orgs'])).toContain('acme');
    });

    it('admin as a system administrator: add-org, add-org-cluster, update-org-cluster, resource presets', async () => {
      await root.ok(['admin', 'add-org', 'beta']);
      await root.ok(['admin', 'add-org', 'gamma', '--skip-default-tenants']);
      expect(await root.ok(['admin', 'get-orgs'])).toMatch(/beta[\s\S]*gamma/);
      const linked = await root.ok(['admin', 'get-cluster-orgs', 'default']);
      expect(linked).toContain('beta');
      expect(linked).not.toContain('gamma');
      await root.ok(['admin', 'add-org-cluster', 'default', 'gamma', '--jobs', '3']);
      const gamma = '/apis/admin/v1/clusters/default/orgs/gamma';
      await call(s, 'PATCH', `${gamma}/quota`, admin, { quota: { cpu: 2.5 } });
      await root.ok(['admin', 'update-org-cluster', 'default', 'gamma', '--jobs', '4']);
      expect((await call(s, 'GET', gamma, admin)).body.quota).toMatchObject({
        total_running_jobs: 4,
        cpu: 2.5,
      });
      expect(await root.ok(['admin', 'get-org-cluster-quota', 'default', 'gamma'])).toMatch(
        /Jobs:\s+4/,
      );
      const credits = await root.run([
        'admin',
        'update-org-cluster',
        'default',
        'gamma',
        '-c',
        '9',
      ]);
      expect(credits.code).not.toBe(0);
      expect(credits.stderr).toContain('Credits are kept per organization on this installation');
      await root.ok(['admin', 'remove-org-cluster', '--force', 'default', 'gamma']);
      expect(await root.ok(['admin', 'get-cluster-orgs', 'default'])).not.toContain('gamma');

      await root.ok(['admin', 'add-resource-preset', 'tiny', '-c', '0.2', '-m', '256MB']);
      await root.ok(['admin', 'update-resource-preset', 'tiny', '-c', '0.3']);
      expect(await root.ok(['config', 'get-clusters'])).toMatch(/tiny\s+0\.3\s+256\.0 MB/);
      await root.ok(['admin', 'remove-resource-preset', 'tiny']);
      expect(await root.ok(['config', 'get-clusters'])).not.toContain('tiny');

      // A fault of CLI 26.8.1 before any request (docs/apolo-clients.md): say so if it changes.
      const project = await root.run(['admin', 'add-project', 'default', 'extra', '--org', 'beta']);
      expect(project.stderr).toContain("unexpected keyword argument 'no_virtual_kube'");
    });
  },
);
