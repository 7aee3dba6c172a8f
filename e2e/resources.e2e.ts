import { existsSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { pushImage, tinyImage } from '../packages/server/src/modules/images/oci-client.js';
import { screenshot, settled } from './support/browser.js';
import type { RunningServer } from './support/server.js';
import { useJourney } from './support/journey.js';
import { ADMIN, signIn } from './support/session.js';

const CONTEXT = 'org=acme&cluster=default&project=vision';
const REGISTRY = '/usr/bin/docker-registry';
const registryInstalled = existsSync(REGISTRY);

/**
 * Disks, secrets and images in Debian's Chromium against the real server process and the
 * production build: a disk created after every wrong input of its form, a secret created,
 * listed and deleted, and an image pushed blob by blob through Orrery's /v2/ then seen and copied.
 */
describe('disks, secrets and images pages', () => {
  let server: RunningServer;
  let token: string;
  let context: BrowserContext;
  let page: Page;
  let errors: string[];
  const api = async (path: string) =>
    (await fetch(`${server.url}${path}`, { headers: { authorization: `Bearer ${token}` } })).json();

  useJourney('resources', (j) => ({ server, token, context, page, errors } = j));
  beforeAll(async () => {
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url });
    await page.goto(server.url);
    await signIn(page, ADMIN.email, ADMIN.password);
    await page.getByRole('banner').waitFor();
  });

  describe('disks', () => {
    it('refuses bad input with the form’s messages', async () => {
      await page.goto(`${server.url}/disks?${CONTEXT}`);
      await page.getByText('No disks found').waitFor();
      await page.getByRole('button', { name: 'Create new disk' }).click();
      const dialog = page.getByRole('dialog', { name: 'Create new disk' });
      const storage = dialog.getByLabel('Storage');
      await storage.fill('abc');
      await dialog.getByLabel('Name', { exact: true }).fill('x');
      await dialog.getByLabel('Lifespan').fill('1x');
      await dialog.getByRole('button', { name: 'Create' }).click();
      await dialog.getByText('Storage must be a number').waitFor();
      await dialog.getByText('Invalid name').waitFor();
      await dialog.getByText('Invalid lifespan value').waitFor();
      await storage.fill('-1');
      await dialog.getByText('Storage must be positive').waitFor();
      await storage.fill('0');
      await dialog.getByText('Storage must be positive').waitFor();
      await settled(page);
      await screenshot(page, 'disks-bad-input');
      // Nothing was sent.
      expect(
        await api(`/api/v1/disk?cluster_name=default&org_name=acme&project_name=vision`),
      ).toEqual([]);
    });

    it('creates a disk from good input and lists it as Ready', async () => {
      const dialog = page.getByRole('dialog', { name: 'Create new disk' });
      await dialog.getByLabel('Storage').fill('2');
      await dialog.getByLabel('Name', { exact: true }).fill('Training data');
      await dialog.getByText('Will be created as "training-data"').waitFor();
      await dialog.getByLabel('Lifespan').fill('1d 2h 3m');
      await dialog.getByRole('button', { name: 'Create' }).click();
      await page.getByText('Disk training-data was created').waitFor();
      await dialog.waitFor({ state: 'hidden' });

      const row = page.getByRole('row', { name: /training-data/ });
      await row.getByRole('cell', { name: 'Ready', exact: true }).waitFor();
      // Text content: the badge shows the status in capitals through CSS only.
      const cells = await row.getByRole('cell').allTextContents();
      // Disks cost nothing on this cluster until an administrator prices them.
      expect(cells.slice(0, 5)).toEqual(['training-data', '0 B / 2 GB', 'Free', 'admin', 'Ready']);
      const headers = await page.getByRole('columnheader').allInnerTexts();
      expect(headers.slice(0, 6)).toEqual([
        'Name',
        'Used / Storage',
        'Credits per day',
        'Owner',
        'Status',
        'Created',
      ]);

      const [disk] = await api(
        `/api/v1/disk?cluster_name=default&org_name=acme&project_name=vision`,
      );
      expect(disk).toMatchObject({ name: 'training-data', storage: 2e9, life_span: 93_780 });
      await settled(page);
      await screenshot(page, 'disks-table');
    });

    it('shows the disk in its drawer', async () => {
      await page
        .getByRole('row', { name: /training-data/ })
        .getByRole('cell')
        .first()
        .click();
      const drawer = page.getByRole('dialog', { name: 'training-data' });
      await drawer.waitFor();
      const [disk] = await api(
        `/api/v1/disk?cluster_name=default&org_name=acme&project_name=vision`,
      );
      await drawer.getByRole('row', { name: `ID ${disk.id}` }).waitFor();
      await drawer.getByRole('row', { name: `URI ${disk.uri}` }).waitFor();
      await drawer.getByRole('row', { name: 'Status Ready' }).waitFor();
      await drawer.getByRole('row', { name: 'Owner admin' }).waitFor();
      await drawer.getByRole('row', { name: 'Storage 2 GB' }).waitFor();
      await drawer.getByRole('row', { name: 'Lifespan 1d 2h 3m' }).waitFor();
      await drawer.getByRole('row', { name: /^Created \w+/ }).waitFor();
      await settled(page);
      await screenshot(page, 'disks-drawer');
      await page.keyboard.press('Escape');
      await drawer.waitFor({ state: 'hidden' });
    });

    it('deletes the disk after confirmation', async () => {
      await page.getByRole('button', { name: 'Delete disk training-data' }).click();
      const dialog = page.getByRole('dialog', { name: 'Delete disk' });
      await dialog
        .getByText(
          'Disk training-data and everything stored on it will be deleted. This cannot be undone.',
        )
        .waitFor();
      await dialog.getByRole('button', { name: 'Delete' }).click();
      await page.getByText('Disk training-data was deleted').waitFor();
      await page.getByText('No disks found').waitFor();
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
      await screenshot(page, 'disks-disk-hint');
      await dialog.getByRole('button', { name: 'Cancel' }).click();
    });
  });

  describe('secrets', () => {
    it('requires key and value, removes spaces from the key and creates the secret', async () => {
      await page.goto(`${server.url}/secrets?${CONTEXT}`);
      await page.getByText('No secrets found').waitFor();
      await page.getByRole('button', { name: 'Create secret' }).click();
      const dialog = page.getByRole('dialog', { name: 'Create new secret' });
      await dialog.getByRole('button', { name: 'Create secret' }).click();
      await dialog.getByText('Key is required').waitFor();
      await dialog.getByText('Value is required').waitFor();
      await dialog.getByLabel('Key').pressSequentially('MY API TOKEN');
      expect(await dialog.getByLabel('Key').inputValue()).toBe('MYAPITOKEN');
      await dialog.getByLabel('Value').fill('s3cr3t-value');
      await dialog.getByRole('button', { name: 'Create secret' }).click();
      await page.getByText('The secret is created').waitFor();
      await dialog.waitFor({ state: 'hidden' });
      await page.getByRole('row', { name: 'MYAPITOKEN admin' }).waitFor();
    });

    it('opens the create dialog from the ?create=1 action and lists both, values hidden', async () => {
      await page.goto(`${server.url}/secrets?${CONTEXT}&create=1`);
      const dialog = page.getByRole('dialog', { name: 'Create new secret' });
      await dialog.getByLabel('Key').fill('DB_PASSWORD');
      await dialog.getByLabel('Value').fill('hunter2');
      await dialog.getByRole('button', { name: 'Create secret' }).click();
      await page.getByText('The secret is created').waitFor();
      await page.waitForURL((u) => !u.searchParams.has('create'));
      await page.getByRole('row', { name: 'DB_PASSWORD admin' }).waitFor();
      await page.getByRole('row', { name: 'MYAPITOKEN admin' }).waitFor();
      const text = await page.locator('body').innerText();
      expect(text).not.toContain('s3cr3t-value');
      expect(text).not.toContain('hunter2');
      await settled(page);
      await screenshot(page, 'secrets-list');
    });

    it('deletes both after confirmation, back to "No secrets found"', async () => {
      for (const key of ['MYAPITOKEN', 'DB_PASSWORD']) {
        await page.getByRole('button', { name: `Delete secret ${key}` }).click();
        const dialog = page.getByRole('dialog', { name: 'Delete secret' });
        await dialog
          .getByText(
            `Delete secret ${key}? Jobs and apps that use it will no longer receive its value.`,
          )
          .waitFor();
        await dialog.getByRole('button', { name: 'Delete' }).click();
        await dialog.waitFor({ state: 'hidden' });
        await page.getByRole('row', { name: `${key} admin` }).waitFor({ state: 'detached' });
      }
      await page.getByText('No secrets found').waitFor();
      await settled(page);
      await screenshot(page, 'secrets-empty');
    });
  });

  describe.skipIf(!registryInstalled)(
    registryInstalled ? 'images' : `images (skipped: ${REGISTRY} is not installed)`,
    () => {
      const image = tinyImage('2026-01-02T03:04:05Z', 'hello from the images page\n');

      it('lists an image pushed blob by blob through /v2/', async () => {
        await pushImage(server.url, `Bearer ${token}`, 'acme/vision/hello', 'v1', image);
        await page.goto(`${server.url}/images?${CONTEXT}`);
        const row = page.getByRole('row', { name: /hello/ });
        await row.waitFor();
        const host = new URL(server.url).host;
        expect(await row.getByRole('cell').allInnerTexts()).toEqual([
          'hello',
          'v1',
          `${host}/acme/vision/hello`,
        ]);
        await page.getByLabel('Search images').fill('nothing-like-it');
        await page.getByText('No images found').waitFor();
        await page.getByLabel('Search images').fill('hel');
        await row.waitFor();
      });

      it('opens the drawer with the tag, and copies the tag and the image with its tag', async () => {
        await page.getByRole('row', { name: /hello/ }).click();
        const drawer = page.getByRole('dialog', { name: 'hello' });
        const host = new URL(server.url).host;
        await drawer.getByText(`${host}/acme/vision/hello`, { exact: true }).waitFor();
        const tag = drawer.getByRole('row', { name: /^v1 / });
        await tag.waitFor();
        const cells = await tag.getByRole('cell').allInnerTexts();
        expect(cells[0]).toBe('v1');
        expect(cells[1]).toMatch(/2026/);
        expect(cells[2]).toMatch(/^\d+ B$/);

        await drawer.getByRole('button', { name: 'Copy tag v1' }).click();
        await page.getByText('Copied to clipboard').first().waitFor();
        expect(await page.evaluate(() => navigator.clipboard.readText())).toBe('v1');
        await drawer.getByRole('button', { name: 'Copy image with tag v1' }).click();
        await expect
          .poll(() => page.evaluate(() => navigator.clipboard.readText()))
          .toBe(`${host}/acme/vision/hello:v1`);
        await settled(page);
        await screenshot(page, 'images-drawer');
      });
    },
  );

  it('ran without errors in the page', () => {
    expect(errors).toEqual([]);
  });
});
