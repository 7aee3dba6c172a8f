import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { screenshot } from './support/browser.js';
import type { RunningServer } from './support/server.js';
import { useJourney } from './support/journey.js';
import { ADMIN, signIn } from './support/session.js';

const CONTEXT = 'org=acme&cluster=default&project=vision';

/**
 * Apps in Debian's Chromium against the real server on the process runtime: the catalogue, the
 * shell's install form with its configuration exported and imported into a fresh form, the
 * instance becoming healthy, a command typed in its web terminal, its start-up line in the Log
 * tab, and the uninstall.
 */
describe('apps journey', () => {
  let server: RunningServer;
  let page: Page;
  let errors: string[];
  let exported = '';

  useJourney('apps', (j) => ({ server, page, errors } = j), {
    env: () => ({ ORRERY_RUNTIME: 'process' }),
    context: { viewport: { width: 1400, height: 900 }, acceptDownloads: true },
  });

  it('shows the catalogue with the shell', async () => {
    await page.goto(server.url);
    await signIn(page, ADMIN.email, ADMIN.password);
    await page.getByRole('banner').waitFor();
    await page.goto(`${server.url}/apps?${CONTEXT}`);
    await page.getByRole('tab', { name: 'All Apps' }).waitFor();
    await page.getByText('Shell', { exact: true }).first().waitFor();
    await screenshot(page, 'apps-catalogue');
  });

  it('exports the install form’s configuration and imports it into a fresh form', async () => {
    await page.goto(`${server.url}/apps/shell/install?${CONTEXT}`);
    await page.getByRole('button', { name: 'Install', exact: true }).waitFor();
    await page.getByLabel('Display name').fill('my-terminal');
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Export App Configuration' }).click(),
    ]);
    exported = readFileSync((await download.path())!, 'utf8');
    expect(exported).toMatch(/^template_name: shell$/m);
    await screenshot(page, 'apps-install');

    await page.reload();
    await page.getByRole('button', { name: 'Import App Configuration' }).click();
    const dialog = page.getByRole('dialog', { name: 'Import App Configuration' });
    await dialog.locator('input[type=file]').setInputFiles({
      name: 'shell.yaml',
      mimeType: 'application/yaml',
      buffer: Buffer.from(exported),
    });
    await dialog.getByText('shell.yaml is valid').waitFor();
    await dialog.getByRole('button', { name: 'Apply' }).click();
    expect(await page.getByLabel('Display name').inputValue()).toBe('my-terminal');
  });

  it('installs the shell and shows it healthy', async () => {
    await page.getByRole('button', { name: 'Install', exact: true }).click();
    await page.getByText('Job is being installed').waitFor();
    await page.waitForURL((u) => u.pathname.startsWith('/apps/instances/'));
    await page.getByRole('heading', { name: 'my-terminal' }).waitFor();
    // The instance page refreshes every 10 s; a shell answers within a few seconds.
    await page.getByText('healthy', { exact: true }).first().waitFor({ timeout: 60_000 });
    await screenshot(page, 'apps-details');
  });

  it('opens the web terminal and runs a command in it', async () => {
    const open = page.getByRole('button', { name: 'Open', exact: true });
    const [tab] = await Promise.all([page.context().waitForEvent('page'), open.click()]);
    // At the terminal's own host, the one-time ticket gone from the address.
    await tab.waitForURL((u) => u.hostname.endsWith('.jobs.localhost') && !u.search);
    await tab.locator('.xterm').waitFor();
    // Keys typed before the shell is connected are lost: it is once its prompt shows.
    await expect.poll(async () => (await tab.locator('.xterm').innerText()).trim()).not.toBe('');
    await tab.locator('.xterm').click();
    await tab.keyboard.type('echo hi-$((6*7))\n');
    await tab.getByText('hi-42', { exact: true }).waitFor({ timeout: 60_000 });
    await screenshot(tab, 'apps-shell');
    await tab.close();
  });

  it('shows in the Log tab the line the shell printed at start-up', async () => {
    await page.getByRole('tab', { name: 'Log' }).click();
    const log = page.getByRole('log', { name: 'App log' });
    await log.getByText(/^shell: listening on \d+, home /).waitFor({ timeout: 60_000 });
    await screenshot(page, 'apps-log');
    await page.getByRole('tab', { name: 'Details' }).click();
  });

  it('uninstalls it and goes back to the installed apps', async () => {
    await page.getByRole('button', { name: 'Uninstall' }).click();
    const dialog = page.getByRole('dialog', { name: 'Uninstall app' });
    await dialog.getByRole('button', { name: 'Uninstall' }).click();
    await page.getByText('App uninstalled successfully').waitFor();
    await page.waitForURL((u) => u.pathname === '/apps/installed');
  });

  it('ran without errors in the page', () => {
    expect(errors).toEqual([]);
  });
});
