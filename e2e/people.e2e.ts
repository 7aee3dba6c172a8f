import { execFileSync } from 'node:child_process';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { launch, screenshot, watchErrors } from './support/browser.js';
import {
  linkFromOutbox,
  removeDataDir,
  ROOT,
  startServer,
  type RunningServer,
} from './support/server.js';
import { send } from './support/session.js';

/**
 * People and administration in Debian's Chromium against the real server: an organization
 * manager invites a newcomer by e-mail, who signs up from the mail, accepts and lands in the
 * organization; another invitation is declined; the manager edits the member's role and
 * credits; the system administrator writes presets; a non-admin cannot open /admin.
 */
describe('people and administration', () => {
  let server: RunningServer;
  let browser: Browser;
  let adminCtx: BrowserContext;
  let newCtx: BrowserContext;
  let admin: Page;
  let newbie: Page;
  let errors: string[][];
  const email = 'newbie@example.test';
  let token = '';

  const api = (method: string, path: string, body?: unknown) =>
    send(server, token, method, path, body) as Promise<any>; // eslint-disable-line @typescript-eslint/no-explicit-any

  beforeAll(async () => {
    server = await startServer();
    token = execFileSync(
      process.execPath,
      ['packages/server/bin/orrery.js', 'token', 'create', '--email', 'admin@orrery.local'],
      { cwd: ROOT, env: { ...process.env, ORRERY_DATA_DIR: server.dataDir }, encoding: 'utf8' },
    ).trim();
    await api('PUT', '/api/v1/users/admin/profile', { terms_accepted: true });
    await api('POST', '/api/v1/orgs', { name: 'crew' });
    await api('POST', '/api/v1/orgs', { name: 'guild' });
    await api('POST', '/api/v1/projects', {
      name: 'alpha',
      org_name: 'crew',
      cluster_name: 'default',
    });
    browser = await launch();
    adminCtx = await browser.newContext();
    newCtx = await browser.newContext();
    admin = await adminCtx.newPage();
    newbie = await newCtx.newPage();
    const adminErrors = watchErrors(admin);
    const newbieErrors = watchErrors(newbie);
    errors = [adminErrors, newbieErrors];
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    if (server) removeDataDir(server.dataDir);
  });
  afterEach(async (ctx) => {
    if (ctx.task.result?.state === 'fail') {
      await screenshot(admin, `people-failed-admin-${ctx.task.name.slice(0, 30)}`);
      await screenshot(newbie, `people-failed-newbie-${ctx.task.name.slice(0, 30)}`);
    }
  });

  const toast = (page: Page, text: string) =>
    page.getByText(text, { exact: true }).first().waitFor();

  it('signs the administrator in and invites a newcomer by e-mail', async () => {
    await admin.goto(`${server.url}/org-settings/users?org=crew`);
    await admin.getByRole('button', { name: 'Sign in' }).click();
    await admin.getByLabel('Email').fill('admin@orrery.local');
    await admin.getByLabel('Password').fill('admin-password-1');
    await admin.getByRole('button', { name: 'Sign in' }).click();
    await admin.getByRole('heading', { name: 'Organization settings' }).waitFor();
    await admin.getByRole('tab', { name: 'Users' }).waitFor();
    await admin.getByRole('button', { name: 'Invite user' }).click();
    const field = admin.getByRole('dialog').getByLabel('E-mail');
    await field.fill('not-an-address');
    await admin.getByRole('dialog').getByRole('button', { name: 'Invite' }).click();
    await admin.getByText('Enter a valid e-mail address').waitFor();
    await field.fill(email);
    await screenshot(admin, 'people-01-invite');
    await admin.getByRole('dialog').getByRole('button', { name: 'Invite' }).click();
    await toast(admin, `User ${email} invited to crew organization`);
    await admin.getByRole('cell', { name: email }).waitFor();
    await screenshot(admin, 'people-02-org-users');
  });

  it('lets the newcomer sign up from the mail and accept with "Accept and Go"', async () => {
    await newbie.goto(linkFromOutbox(server.dataDir, email, '/invite-signup'));
    await newbie.getByRole('heading', { name: 'Create your account' }).waitFor();
    await newbie.getByLabel('Name', { exact: true }).fill('Nina Newbie');
    await newbie.getByLabel('Username').fill('newbie');
    expect(await newbie.getByLabel('Email').inputValue()).toBe(email);
    await newbie.getByLabel('Password').fill('fresh-start-123');
    await newbie.getByRole('button', { name: 'Create account' }).click();
    await newbie.getByRole('button', { name: 'I agree' }).waitFor();
    await newbie.getByLabel('I have read and agree to the Terms of Use').check();
    await newbie.getByRole('button', { name: 'I agree' }).click();
    await newbie.getByRole('heading', { name: 'You have been invited to organization' }).waitFor();
    expect(new URL(newbie.url()).pathname).toMatch(/^\/invites\/[0-9a-f-]{36}$/);
    await newbie.getByText('crew', { exact: true }).waitFor();
    await screenshot(newbie, 'people-03-invite-screen');
    // The invitation mail's link verified the address: no second mail to follow.
    await newbie.getByRole('button', { name: 'Accept and Go' }).click();
    await toast(newbie, 'You have been added to organization crew');
    await newbie.waitForURL((u) => u.searchParams.get('org') === 'crew');
    await newbie.getByRole('banner').waitFor();
  });

  it('shows another invitation in the side menu, and the newcomer declines it', async () => {
    await api('POST', '/apis/admin/v1/invites', { email, role_name: 'user', org_name: 'guild' });
    await newbie.reload();
    await newbie.getByText('You have 1 pending invitation').waitFor();
    await newbie.getByRole('link', { name: 'View invitations' }).click();
    await newbie.getByRole('heading', { name: 'Invitations' }).waitFor();
    const row = newbie.getByRole('row', { name: /guild/ });
    await row.getByText('invited').waitFor();
    await screenshot(newbie, 'people-04-invites');
    await row.getByRole('button', { name: 'Decline' }).click();
    await row.getByText('declined').waitFor();
    await newbie.getByText('You have 1 pending invitation').waitFor({ state: 'detached' });
  });

  it('lets the manager edit the member’s role and credits', async () => {
    await admin.reload();
    await admin.getByRole('button', { name: 'Edit newbie' }).click();
    const dialog = admin.getByRole('dialog');
    await dialog.getByRole('combobox', { name: 'Role' }).click();
    await admin.getByRole('option', { name: 'manager' }).click();
    await dialog.getByLabel('Credits').fill('-5');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.getByText('Credits must be a non-negative number').waitFor();
    await dialog.getByLabel('Credits').fill('50');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await toast(admin, 'User newbie is updated');
    const row = admin.getByRole('row', { name: /newbie/ });
    await row.getByText('manager').waitFor();
    await row.getByText('50').waitFor();
    const users = await api('GET', '/apis/admin/v1/orgs/crew/users');
    expect(users.find((u: { user_name: string }) => u.user_name === 'newbie')).toMatchObject({
      role: 'manager',
      balance: { credits: '50' },
    });
  });

  it('has the system administrator refuse a preset that fits no pool, then save one', async () => {
    await admin.goto(`${server.url}/admin/clusters/default/resources?org=crew`);
    await admin.getByRole('tab', { name: 'Resources', selected: true }).waitFor();
    await admin.getByRole('button', { name: 'Create preset' }).click();
    const dialog = admin.getByRole('dialog');
    await dialog.getByLabel('Name').fill('spot-small');
    await dialog.getByLabel('CPU', { exact: true }).fill('0.001');
    await dialog.getByLabel('Memory', { exact: true }).fill('128');
    await dialog.getByRole('combobox', { name: 'Unit' }).click();
    await admin.getByRole('option', { name: 'MB' }).click();
    await dialog.getByText('Number of CPU cores cannot be less than 0.01 cores').waitFor();
    await dialog.getByLabel('CPU', { exact: true }).fill('0.5');
    // The local pool is not preemptible: no pool holds a preemptible preset.
    await dialog.getByLabel('Preemptible').check();
    await dialog.getByText("This preset won't fit into any node pool").waitFor();
    await screenshot(admin, 'people-05-preset-no-fit');
    await dialog.getByLabel('Preemptible').uncheck();
    await dialog.getByLabel('Round-robin').check();
    await dialog.getByRole('button', { name: 'Save' }).click();
    await toast(admin, 'Preset spot-small is saved');
    await admin.getByRole('cell', { name: 'spot-small', exact: true }).waitFor();
    await screenshot(admin, 'people-06-presets');
    // Jobs read presets from the cluster configuration: the new one is there.
    const config = await api('GET', '/api/v1/config');
    const presets = config.clusters[0].resource_presets.map((p: { name: string }) => p.name);
    expect(presets).toContain('spot-small');
  });

  it('shows the node pools with this machine’s capacity and edits one', async () => {
    await admin.getByRole('tab', { name: 'Nodes' }).click();
    // The presets' table also has a "local" cell in each row: wait for what only the nodes' table has.
    await admin.getByRole('button', { name: 'Edit node pool local' }).waitFor();
    await screenshot(admin, 'people-07-nodes');
    await admin.getByRole('button', { name: 'Edit node pool local' }).click();
    const dialog = admin.getByRole('dialog');
    await dialog.getByText('Idle nodes can be up to 0 (difference between max and min)').waitFor();
    await dialog.getByLabel('CPU maximum watts').fill('120');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await toast(admin, 'Provider node pool local is updated');
  });

  it('links an organization with a checked jobs quota and prices storage', async () => {
    await admin.getByRole('tab', { name: 'Organizations' }).click();
    await admin.getByRole('cell', { name: 'crew', exact: true }).waitFor();
    await admin.getByRole('button', { name: 'Edit quota of crew' }).click();
    const dialog = admin.getByRole('dialog');
    await dialog.getByLabel('Jobs quota').fill('-2');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.getByText('Jobs must be a positive number').waitFor();
    await dialog.getByLabel('Jobs quota').fill('4');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await toast(admin, 'Quota of crew is updated');
    await admin.getByRole('row', { name: /crew/ }).getByText('4', { exact: true }).waitFor();
    await admin.getByLabel('default: Credits per GB per hour').fill('0.2');
    // "Save disk price" beside it is the disks'.
    await admin.getByRole('button', { name: 'Save', exact: true }).click();
    await toast(admin, 'Credits updated for default storage volume');
    await screenshot(admin, 'people-08-cluster-orgs');
  });

  it('lists system users and finds organizations from two characters', async () => {
    await admin.goto(`${server.url}/admin/users?org=crew`);
    await admin.getByRole('cell', { name: 'newbie@example.test' }).waitFor();
    await screenshot(admin, 'people-09-admin-users');
    await admin.getByRole('tab', { name: 'Organizations' }).click();
    await admin.getByText('Type at least 2 characters').waitFor();
    await admin.getByLabel('Search organizations').fill('zz');
    await admin.getByText('No organizations found').waitFor();
    await admin.getByLabel('Search organizations').fill('cr');
    await admin.getByRole('cell', { name: 'crew', exact: true }).waitFor();
    const credits = async (mode: string, value: string) => {
      await admin.getByRole('button', { name: 'Credits of crew' }).click();
      const dialog = admin.getByRole('dialog');
      await dialog.getByText(mode).click();
      await dialog.getByRole('textbox').fill(value);
      await dialog.getByRole('button', { name: 'Save' }).click();
      await toast(admin, 'Credits of crew are updated');
      await dialog.waitFor({ state: 'detached' });
    };
    await credits('Set credits', '250');
    await admin.getByRole('cell', { name: '250', exact: true }).waitFor();
    await credits('Add credits', '50');
    await admin.getByRole('cell', { name: '300', exact: true }).waitFor();
    await screenshot(admin, 'people-10-admin-orgs');
  });

  it('adds the member to the cluster and to a project from their pages', async () => {
    await admin.goto(`${server.url}/cluster-settings/users?org=crew&cluster=default&project=alpha`);
    await admin.getByRole('tab', { name: 'General' }).waitFor();
    await admin.getByRole('button', { name: 'Add user' }).click();
    const dialog = admin.getByRole('dialog');
    const add = dialog.getByRole('button', { name: 'Add' });
    expect(await add.isDisabled()).toBe(true);
    await dialog.getByRole('combobox', { name: 'User' }).fill('n');
    await admin.getByText('Type at least 2 characters').waitFor();
    await dialog.getByRole('combobox', { name: 'User' }).fill('ne');
    await admin.getByRole('option', { name: /newbie/ }).click();
    await add.click();
    await toast(admin, 'User newbie added to default cluster');
    await admin.getByRole('cell', { name: 'newbie', exact: true }).waitFor();
    await screenshot(admin, 'people-11-cluster-users');
    await admin.goto(`${server.url}/project-settings/users?org=crew&cluster=default&project=alpha`);
    await admin.getByRole('button', { name: 'Add user' }).click();
    await dialog.getByRole('combobox', { name: 'User' }).fill('new');
    await admin.getByRole('option', { name: /newbie/ }).click();
    await dialog.getByRole('button', { name: 'Add' }).click();
    await toast(admin, 'User newbie added to alpha project');
    await admin
      .getByRole('row', { name: /newbie/ })
      .getByText('writer')
      .waitFor();
    await screenshot(admin, 'people-12-project-users');
  });

  it('redirects a user without a system role away from /admin', async () => {
    await newbie.goto(`${server.url}/admin/users`);
    await newbie.waitForURL((u) => !u.pathname.startsWith('/admin'));
    await newbie.getByRole('banner').waitFor();
    expect(new URL(newbie.url()).pathname).toBe('/');
  });

  it('ran without errors in either page', () => {
    expect(errors).toEqual([[], []]);
  });
});
