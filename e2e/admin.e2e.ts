import { beforeAll, describe, expect, it } from 'vitest';
import type { Page, Request } from 'playwright-core';
import { screenshot, settled } from './support/browser.js';
import type { RunningServer } from './support/server.js';
import { useJourney } from './support/journey.js';
import { ADMIN, signIn } from './support/session.js';

const CONTEXT = 'org=acme&cluster=default&project=vision';

/**
 * The administrator's forms in Debian's Chromium against the real server and the production
 * build: Create user, a node pool's watts and a storage volume's credits are checked in words
 * before anything is sent; the cluster's users list and its Add user dialog.
 */
describe('administration forms', () => {
  let server: RunningServer;
  let page: Page;
  let errors: string[];
  /** Every request the page sent that changes something (the forms' checks must stop them). */
  const writes: string[] = [];

  useJourney('admin', (j) => ({ server, page, errors } = j));
  beforeAll(async () => {
    page.on('request', (r: Request) => {
      if (r.method() !== 'GET' && new URL(r.url()).pathname.startsWith('/api'))
        writes.push(`${r.method()} ${new URL(r.url()).pathname}`);
    });
    await page.goto(server.url);
    await signIn(page, ADMIN.email, ADMIN.password);
    await page.getByRole('banner').waitFor();
  });
  const sent = (what: RegExp) => writes.filter((w) => what.test(w));

  it('admin Create user says what is wrong in words and sends nothing', async () => {
    await page.goto(`${server.url}/admin/users?${CONTEXT}`);
    await page.getByRole('button', { name: 'Create user' }).click();
    const dialog = page.getByRole('dialog', { name: 'Create user' });
    await dialog.getByRole('button', { name: 'Create user' }).click();
    await dialog.getByText('Username is required').waitFor();
    await dialog.getByText('Enter a valid e-mail address').waitFor();
    await dialog.getByLabel('Username').fill('Not A Name');
    await dialog
      .getByText('Use 3 to 40 lowercase letters, digits and single hyphens', { exact: true })
      .waitFor();
    expect(await dialog.getByText(/expected string|Too small|Invalid input/).count()).toBe(0);
    await settled(page);
    await screenshot(page, 'admin-create-user');
    expect(sent(/\/users$/)).toEqual([]);
    await dialog.getByRole('button', { name: 'Cancel' }).click();
  });

  it('node pool watts and storage volume credits are checked before any request', async () => {
    await page.goto(`${server.url}/admin/clusters/default/nodes?${CONTEXT}`);
    await page
      .getByRole('button', { name: /^Edit node pool / })
      .first()
      .click();
    const dialog = page.getByRole('dialog', { name: /^Edit node pool / });
    await dialog.getByLabel('CPU minimum watts').fill('abc');
    await dialog.getByLabel('CPU maximum watts').fill('-5');
    await dialog.getByRole('button', { name: 'Save' }).click();
    expect(await dialog.getByText('Must be a non-negative number').count()).toBe(2);
    await dialog.getByLabel('CPU minimum watts').fill('200');
    await dialog.getByLabel('CPU maximum watts').fill('100');
    await dialog.getByText('Maximum watts cannot be less than minimum watts').waitFor();
    await settled(page);
    await screenshot(page, 'admin-node-pool');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    expect(sent(/node_pools|nodepools|node-pools/i)).toEqual([]);

    await page.goto(`${server.url}/admin/clusters/default/organizations?${CONTEXT}`);
    const credits = page.getByLabel(/Credits per GB per hour/).first();
    await credits.fill('-1');
    await credits
      .locator('xpath=ancestor::div[contains(@class,"mantine-Group-root")][1]')
      .getByRole('button', { name: 'Save' })
      .click();
    await page.getByText('Credits per hour must be a non-negative number').waitFor();
    await settled(page);
    await screenshot(page, 'admin-volume-credits');
    expect(sent(/storage_volumes|volumes/)).toEqual([]);
  });

  it('the cluster users list shows the organization’s members; Add user says what it found', async () => {
    await page.goto(`${server.url}/cluster-settings/users?${CONTEXT}`);
    const row = page.getByRole('row', { name: new RegExp(`^${ADMIN.username} `) });
    await row.waitFor();
    expect(await row.innerText()).toContain(ADMIN.email);
    await page.getByRole('button', { name: 'Add user' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add user' });
    const search = dialog.getByLabel('User', { exact: true });
    await search.click();
    await search.fill('z');
    await page.getByText('Type at least 2 characters', { exact: true }).waitFor();
    await search.fill('zz');
    await page.getByText('No users found in acme organization', { exact: true }).waitFor();
    await settled(page);
    await screenshot(page, 'admin-cluster-users');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
  });

  it('ran without errors in the page', () => {
    expect(errors).toEqual([]);
  });
});
