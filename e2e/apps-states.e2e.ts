import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { screenshot } from './support/browser.js';
import type { RunningServer } from './support/server.js';
import { useJourney } from './support/journey.js';
import { ADMIN, signIn } from './support/session.js';

const CONTEXT = 'org=acme&cluster=default&project=vision';

/**
 * An app's install states as a newcomer meets them, in Debian's Chromium against the real server
 * on the process runtime: a template this installation cannot run has Install disabled with the
 * server's reason before anyone fills in a form; an app whose job fails at once says why on its
 * page and its card, and never shows a wait once its installer job has failed.
 */
describe('app install states', () => {
  let server: RunningServer;
  let page: Page;
  let errors: string[];

  useJourney('apps-states', (j) => ({ server, page, errors } = j), {
    env: () => ({ ORRERY_RUNTIME: 'process' }),
    context: { viewport: { width: 1400, height: 900 } },
  });

  it('disables Install of a template this runtime cannot run, with the server’s reason', async () => {
    await page.goto(server.url);
    await signIn(page, ADMIN.email, ADMIN.password);
    await page.getByRole('banner').waitFor();
    await page.goto(`${server.url}/apps?${CONTEXT}`);
    const dify = page.getByRole('article', { name: 'Dify' });
    const reason = 'Dify needs the docker runtime; this installation runs jobs on process';
    await dify.getByText(reason).waitFor();
    expect(await dify.getByRole('button', { name: 'Install' }).isDisabled()).toBe(true);
    await screenshot(page, 'apps-states-catalogue');
    // Its install form, reached by its address, cannot be sent either.
    await page.goto(`${server.url}/apps/dify/install?${CONTEXT}`);
    await page.getByText(reason).first().waitFor();
    expect(await page.getByRole('button', { name: 'Install', exact: true }).isDisabled()).toBe(
      true,
    );
  });

  it('says why an app whose job fails at once failed, never showing a wait after', async () => {
    await page.goto(`${server.url}/apps/orrery-deploy/install?${CONTEXT}`);
    await page.getByLabel('Display name').fill('broken-site');
    await page.getByRole('checkbox', { name: 'Command' }).check();
    await page.getByRole('textbox', { name: 'Command' }).fill('echo cannot start >&2; exit 3');
    await page.getByRole('button', { name: 'Install', exact: true }).click();
    await page.waitForURL((u) => u.pathname.startsWith('/apps/instances/'));
    await page.getByRole('heading', { name: 'broken-site' }).waitFor();
    // The installer job's end is shown as soon as the page knows it, and no wait beside it.
    const progress = page.getByRole('status', { name: 'Installer job' });
    const failed = page.getByRole('alert').filter({ hasText: 'The app failed' });
    await Promise.race([
      progress.getByText('failed', { exact: true }).waitFor({ timeout: 60_000 }),
      failed.waitFor({ timeout: 60_000 }),
    ]);
    expect(await page.getByRole('status', { name: 'Waiting for capacity' }).count()).toBe(0);
    await failed.waitFor({ timeout: 60_000 });
    expect(await failed.textContent()).toMatch(/Job job-[0-9a-f-]+ failed: /);
    expect(await page.getByRole('status', { name: 'Waiting for capacity' }).count()).toBe(0);
    await page.getByText('errored', { exact: true }).first().waitFor();
    await screenshot(page, 'apps-states-failed');

    await page.goto(`${server.url}/apps/installed?${CONTEXT}`);
    const card = page.getByRole('article', { name: 'broken-site' });
    await card.getByText('errored', { exact: true }).waitFor();
    await card.getByText(/Job job-[0-9a-f-]+ failed: /).waitFor();
    await screenshot(page, 'apps-states-installed');
  });

  it('ran without errors in the page', () => {
    expect(errors).toEqual([]);
  });
});
