import { beforeAll, describe, expect, it } from 'vitest';
import type { Page, Request } from 'playwright-core';
import { screenshot, settled } from './support/browser.js';
import type { RunningServer } from './support/server.js';
import { useJourney } from './support/journey.js';
import { ADMIN, signIn } from './support/session.js';
// The registry tests' own client: a tiny image pushed through Orrery's /v2/ as `docker push` does.
import { basicAuth, pushImage } from '../packages/server/src/modules/images/oci-client.js';

const CONTEXT = 'org=acme&cluster=default&project=vision';

/**
 * The spec's remaining details (issue 15) in Debian's Chromium against the real server and the
 * production build: texts word for word, admin forms that check before they send, the job
 * form's pattern message, the cluster's users, the add-user dialog's empty texts, the upload
 * panel of the folder in view, the memory of a job in its preset's unit, Choose Image Tag's Apply,
 * HTTP URL by name, the favicon, and toasts that leave a drawer's title readable.
 */
describe('the spec’s remaining details', () => {
  let server: RunningServer;
  let token: string;
  let page: Page;
  let errors: string[];
  /** Every request the page sent that changes something (the forms' checks must stop them). */
  const writes: string[] = [];

  useJourney('spec-details', (j) => ({ server, token, page, errors } = j));
  beforeAll(async () => {
    await pushImage(server.url, basicAuth(ADMIN.username, token), 'acme/vision/hello', 'v1');
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
    await screenshot(page, 'spec-details-create-user');
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
    await screenshot(page, 'spec-details-node-pool');
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
    await screenshot(page, 'spec-details-volume-credits');
    expect(sent(/storage_volumes|volumes/)).toEqual([]);
  });

  it('the disk name hint says the name identifies the disk in the cluster', async () => {
    await page.goto(`${server.url}/disks?${CONTEXT}`);
    await page.getByRole('button', { name: 'Create new disk' }).click();
    const dialog = page.getByRole('dialog', { name: 'Create new disk' });
    await dialog
      .getByText(
        'Optional. Letters, digits, spaces and hyphens; the name should uniquely identify the disk in the cluster.',
      )
      .waitFor();
    await settled(page);
    await screenshot(page, 'spec-details-disk-hint');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
  });

  it('a pattern error on the job form is in words, without the required-fields toast', async () => {
    await page.goto(`${server.url}/jobs/new?${CONTEXT}`);
    await page.getByLabel(/^Image/).fill('ubuntu:24.04');
    await page.getByLabel(/^Name/).fill('My Job');
    await page.getByRole('button', { name: 'Create job' }).click();
    await page
      .getByText(
        'Value does not match the required pattern: lowercase letters, digits and single hyphens, starting with a letter',
      )
      .waitFor();
    await settled(page);
    expect(await page.getByText('Please fill in all required fields').count()).toBe(0);
    expect(await page.getByText('^[a-z]', { exact: false }).count()).toBe(0);
    await screenshot(page, 'spec-details-job-pattern');
    expect(sent(/\/jobs$/)).toEqual([]);
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
    await screenshot(page, 'spec-details-cluster-users');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
  });

  it('the upload panel lists the uploads of the folder in view and clears finished ones', async () => {
    const mkdir = await fetch(`${server.url}/api/v1/storage/acme/vision/inner?op=MKDIRS`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${token}` },
    });
    expect(mkdir.status).toBeLessThan(300);
    await page.goto(`${server.url}/files?${CONTEXT}`);
    await page.getByRole('button', { name: 'Folder inner', exact: true }).waitFor();
    await page.locator('input[type=file]').setInputFiles({
      name: 'root.txt',
      mimeType: 'text/plain',
      buffer: Buffer.from('at the root\n'),
    });
    const panel = page.getByRole('region', { name: 'Uploads' });
    await panel.getByText('root.txt').waitFor();
    await screenshot(page, 'spec-details-upload-root');
    // Finished, it clears itself: the file is in the listing.
    await panel.waitFor({ state: 'detached', timeout: 60_000 });
    await page.getByRole('button', { name: 'File root.txt', exact: true }).waitFor();

    await page.getByRole('button', { name: 'Folder inner', exact: true }).dblclick();
    await page.waitForURL((u) => u.searchParams.get('path') === 'inner');
    await page.locator('input[type=file]').setInputFiles({
      name: 'inner.txt',
      mimeType: 'text/plain',
      buffer: Buffer.from('inside\n'),
    });
    await panel.getByText('inner.txt').waitFor();
    expect(await panel.getByText('root.txt').count()).toBe(0);
    await page.getByRole('button', { name: 'File inner.txt', exact: true }).waitFor();
  });

  it('a job’s memory is in its preset’s unit on the job page, the form and admin', async () => {
    const presets = (await (
      await fetch(`${server.url}/api/v1/config`, { headers: { authorization: `Bearer ${token}` } })
    ).json()) as { clusters?: { resource_presets?: { name: string; memory: number }[] }[] };
    const preset = presets.clusters?.[0]?.resource_presets?.[0];
    expect(preset).toBeTruthy();
    const res = await fetch(`${server.url}/api/v1/jobs?from_preset`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        cluster_name: 'default',
        org_name: 'acme',
        project_name: 'vision',
        preset_name: preset!.name,
        name: 'memory-check',
        image: 'busybox:latest',
        command: 'true',
        pass_config: false,
      }),
    });
    expect(res.status).toBe(202);
    const job = (await res.json()) as { id: string };
    await page.goto(`${server.url}/jobs/${job.id}?${CONTEXT}`);
    const gb = preset!.memory / 1e9;
    const shown =
      gb >= 1 ? `${Number(gb.toFixed(2))} GB` : `${Number((preset!.memory / 1e6).toFixed(2))} MB`;
    await page
      .getByText(new RegExp(`CPU, ${shown.replace('.', '\\.')}`))
      .first()
      .waitFor();
    expect(await page.getByText(/GiB|MiB/).count()).toBe(0);
    await settled(page);
    await screenshot(page, 'spec-details-job-memory');
    // The Details tab names the name-based URL "HTTP URL by name" (workloads §2 Jobs).
    await page.getByRole('tab', { name: 'Details' }).click();
    const byName = page.getByRole('row', { name: /^HTTP URL by name/ });
    await byName.waitFor();
    const url = (await byName.getByRole('cell').last().innerText()).trim();
    if (url.startsWith('http')) expect(url).toContain('memory-check');

    // The same unit in the job form's preset field and in the administrator's presets.
    await page.goto(`${server.url}/jobs/new?${CONTEXT}`);
    const field = page.getByRole('combobox', { name: /^Preset/ });
    await expect
      .poll(() => field.inputValue(), { timeout: 60_000 })
      .toContain(`${preset!.name} · `);
    expect(await field.inputValue()).toContain(` ${shown} `);
    await page.goto(`${server.url}/admin/clusters/default/resources?${CONTEXT}`);
    const row = page.getByRole('row', { name: new RegExp(`^${preset!.name} `) });
    await row.getByRole('cell', { name: shown, exact: true }).waitFor();
    expect(errors).toEqual([]);
  });

  it('Choose Image Tag confirms with Apply and fills the job form', async () => {
    await page.goto(`${server.url}/jobs/new?${CONTEXT}`);
    await page.getByRole('button', { name: 'Choose image' }).click();
    const images = page.getByRole('dialog', { name: 'Choose Image' });
    await images.getByRole('cell', { name: 'hello' }).click();
    await images.getByRole('button', { name: 'Select' }).click();
    const tags = page.getByRole('dialog', { name: 'Choose Image Tag' });
    await tags.getByRole('cell', { name: 'v1', exact: true }).click();
    await settled(page);
    await screenshot(page, 'spec-details-image-tag');
    await tags.getByRole('button', { name: 'Apply', exact: true }).click();
    await tags.waitFor({ state: 'hidden' });
    expect(await page.getByLabel(/^Image/).inputValue()).toContain('hello:v1');
  });

  it('has a favicon', async () => {
    const href = await page.locator('link[rel=icon]').getAttribute('href');
    expect(href).toBeTruthy();
    const icon = await fetch(new URL(href!, server.url));
    expect(icon.status).toBe(200);
    expect(icon.headers.get('content-type')).toMatch(/^image\//);
  });

  it('a toast never covers a drawer’s title', async () => {
    await page.goto(`${server.url}/disks?${CONTEXT}`);
    await page.getByRole('button', { name: 'Create new disk' }).click();
    const dialog = page.getByRole('dialog', { name: 'Create new disk' });
    await dialog.getByLabel('Storage').fill('1');
    await dialog.getByLabel('Name', { exact: true }).fill('toast-check');
    await dialog.getByRole('button', { name: 'Create' }).click();
    const toast = page.getByText('Disk toast-check was created');
    await toast.waitFor();
    await page
      .getByRole('row', { name: /toast-check/ })
      .getByRole('cell')
      .first()
      .click();
    const drawer = page.getByRole('dialog', { name: 'toast-check' });
    await drawer.waitFor();
    await settled(page);
    expect(await toast.isVisible()).toBe(true);
    await screenshot(page, 'spec-details-toast-drawer');
    const title = (await drawer.locator('.mantine-Drawer-title').boundingBox())!;
    const note = (await page.locator('.mantine-Notification-root').first().boundingBox())!;
    const overlaps =
      note.x < title.x + title.width &&
      title.x < note.x + note.width &&
      note.y < title.y + title.height &&
      title.y < note.y + note.height;
    expect(overlaps, JSON.stringify({ title, note })).toBe(false);
    expect(errors).toEqual([]);
  });
});
