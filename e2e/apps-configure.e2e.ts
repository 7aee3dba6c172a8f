import { describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { screenshot, settled } from './support/browser.js';
import type { RunningServer } from './support/server.js';
import { useJourney } from './support/journey.js';
import { ADMIN, signIn } from './support/session.js';

const CONTEXT = 'org=acme&cluster=default&project=vision';
const V1 = '/apis/apps/v1/cluster/default/org/acme/project/vision';

const box = async (l: Locator) => (await l.boundingBox())!;

/**
 * The install form's footer, "The Environment Variable" dialog and the Configure page of an
 * installed shell, in Debian's Chromium against the real server on the process runtime.
 */
describe('apps: install footer, env dialog, configure', () => {
  let server: RunningServer;
  let page: Page;
  let token: string;
  let errors: string[];
  let instancePath = '';

  useJourney('apps-configure', (j) => ({ server, page, errors, token } = j), {
    env: () => ({ ORRERY_RUNTIME: 'process' }),
    context: { viewport: { width: 1400, height: 900 } },
  });

  const api = async (path: string) =>
    (await fetch(`${server.url}${path}`, { headers: { authorization: `Bearer ${token}` } })).json();

  it('keeps the install footer on one line at the form’s width, wrapping on a narrow screen', async () => {
    await page.goto(server.url);
    await signIn(page, ADMIN.email, ADMIN.password);
    await page.getByRole('banner').waitFor();
    await page.goto(`${server.url}/apps/shell/install?${CONTEXT}`);
    const install = page.getByRole('button', { name: 'Install', exact: true });
    await install.waitFor();
    const exportButton = page.getByRole('button', { name: 'Export App Configuration' });
    const importButton = page.getByRole('button', { name: 'Import App Configuration' });
    const footer = page.getByTestId('form-footer');
    expect((await box(footer)).width).toBeGreaterThan(600);
    const [imp, exp, ins] = [await box(importButton), await box(exportButton), await box(install)];
    expect(exp.y).toBe(imp.y);
    expect(ins.y).toBe(imp.y);
    await screenshot(page, 'apps-install-footer');

    await page.setViewportSize({ width: 420, height: 900 });
    await settled(page);
    const narrow = [await box(importButton), await box(install)];
    expect(narrow[1].y).toBeGreaterThan(narrow[0].y);
    // Wrapped, nothing sticks out of the footer.
    const f = await box(footer);
    for (const b of [await box(importButton), await box(exportButton), await box(install)])
      expect(b.x + b.width).toBeLessThanOrEqual(f.x + f.width + 0.5);
    await screenshot(page, 'apps-install-footer-narrow');
    // Tall enough for the whole forms below: the screenshots show them unscrolled.
    await page.setViewportSize({ width: 1400, height: 1300 });
  });

  it('adds and edits an environment variable in its dialog', async () => {
    await page.goto(`${server.url}/apps/orrery-deploy/install?${CONTEXT}`);
    await page.getByRole('button', { name: 'Advanced' }).first().click();
    await page.getByRole('button', { name: 'Add variable' }).click();
    const dialog = page.getByRole('dialog', { name: 'The Environment Variable' });
    await dialog.waitFor();
    await settled(page);
    expect(Math.round((await box(page.locator('.mantine-Modal-content'))).width)).toBe(520);
    const add = dialog.getByRole('button', { name: 'Add' });
    expect(await add.isDisabled()).toBe(true);
    await dialog.getByLabel('Name').fill('GREETING');
    await dialog.getByLabel('Value').fill('hello');
    await screenshot(page, 'apps-env-modal');
    await add.click();
    await dialog.waitFor({ state: 'hidden' });
    await page.getByRole('button', { name: 'Edit GREETING' }).click();
    await dialog.getByLabel('Value').fill('hello again');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.waitFor({ state: 'hidden' });
    expect(await page.getByLabel('Value 1').inputValue()).toBe('hello again');
  });

  it('installs the shell and follows its installer job until healthy', async () => {
    await page.goto(`${server.url}/apps/shell/install?${CONTEXT}`);
    await page.getByLabel('Display name').fill('configure-me');
    await page.getByRole('button', { name: 'Install', exact: true }).click();
    await page.waitForURL((u) => u.pathname.startsWith('/apps/instances/'));
    instancePath = new URL(page.url()).pathname;
    const title = page.getByRole('heading', { name: 'configure-me' });
    await title.waitFor();
    // The app's own badge, beside its title (its events may say healthy a moment before).
    await title.locator('..').getByText('healthy', { exact: true }).waitFor({ timeout: 60_000 });
    expect(await page.getByRole('status', { name: 'Installer job' }).count()).toBe(0);
  });

  it('configures the idle timeout only, and goes back to the app', async () => {
    await page.getByRole('link', { name: 'Configure' }).click();
    await page.waitForURL((u) => u.pathname === `${instancePath}/configure`);
    const idle = page.getByLabel(/Idle timeout/);
    await idle.waitFor();
    expect(await idle.isDisabled()).toBe(false);
    expect(await page.getByRole('combobox', { name: /Resource Preset/ }).isDisabled()).toBe(true);
    await idle.fill('5');
    await screenshot(page, 'apps-configure');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('App configuration saved').waitFor();
    await page.waitForURL((u) => u.pathname === instancePath);
    const id = instancePath.split('/').pop();
    const input = await api(`${V1}/instances/${id}/input`);
    expect(input.idle_timeout_minutes).toBe(5);
    const revisions = await api(`${V1}/instances/${id}/revisions`);
    expect(revisions.items ?? revisions).toHaveLength(2);
  });

  it('ran without errors in the page', () => {
    expect(errors).toEqual([]);
  });
});
