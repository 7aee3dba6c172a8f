import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { screenshot } from './support/browser.js';
import type { RunningServer } from './support/server.js';
import { useJourney } from './support/journey.js';
import { ADMIN, signIn } from './support/session.js';

const CONTEXT = 'org=acme&cluster=default&project=vision';
/** Writes an output as a flow's task does, then keeps running for the metrics dashboard. */
const WRITE_AND_WAIT = 'sh -c "echo ::set-output name=answer::42; sleep 300"';

/**
 * Honest runtimes and the job page's outputs and metrics in Debian's Chromium against
 * the real server on the process runtime.
 */
describe('jobs on the process runtime', () => {
  let server: RunningServer;
  let page: Page;
  let errors: string[];

  useJourney('jobs-runtime', (j) => ({ server, page, errors } = j), {
    env: () => ({ ORRERY_RUNTIME: 'process' }),
    context: { viewport: { width: 1400, height: 900 } },
  });

  it('says before Create that the image is not used', async () => {
    await page.goto(server.url);
    await signIn(page, ADMIN.email, ADMIN.password);
    await page.getByRole('banner').waitFor();
    await page.goto(`${server.url}/jobs/new?${CONTEXT}`);
    await page.getByRole('heading', { name: 'Create new job' }).waitFor();
    await page
      .getByText(/the image is not used, and the command runs on the host system/)
      .waitFor();
    await screenshot(page, 'jobs-runtime-form');

    await page.getByLabel('Image').fill('busybox');
    await page.getByLabel('Name', { exact: true }).fill('writer');
    await page.getByLabel('Command').fill(WRITE_AND_WAIT);
    await page.getByRole('button', { name: 'Create job' }).click();
    await page.waitForURL((u) => /^\/jobs\/job-[0-9a-f-]+$/.test(u.pathname));
    await page.getByText('running', { exact: true }).first().waitFor({ timeout: 60_000 });
  });

  it('disables Save image with the reason', async () => {
    const save = page.getByRole('button', { name: 'Save image' });
    expect(await save.isDisabled()).toBe(true);
    await save.locator('..').hover();
    await page
      .getByText('This job runs on the process runtime: it has no container image to save')
      .waitFor();
  });

  it('shows the outputs the job wrote', async () => {
    const tab = page.getByRole('tab', { name: 'Outputs' });
    await expect.poll(() => tab.isDisabled(), { timeout: 60_000 }).toBe(false);
    await tab.click();
    const table = page.getByRole('table', { name: 'Written outputs' });
    await table.getByRole('cell', { name: 'answer' }).waitFor();
    await table.getByRole('cell', { name: '42' }).waitFor();
    await screenshot(page, 'jobs-runtime-outputs');
  });

  it('opens the metrics dashboard of the running job with its charts', async () => {
    await page.getByRole('tab', { name: 'Observability' }).click();
    await page.getByRole('link', { name: 'Metrics: last 15 minutes' }).click();
    await page.getByRole('heading', { name: 'Metrics of writer' }).waitFor();
    // The server records the load from the job's first scan; the page asks again every 10 s.
    await page.getByRole('figure', { name: 'CPU, %' }).waitFor({ timeout: 60_000 });
    await page.getByRole('figure', { name: 'Memory, %' }).waitFor();
    // The figure is there before the responsive chart has measured its box and drawn the lines.
    await expect
      .poll(() => page.locator('.recharts-line-curve').count(), { timeout: 60_000 })
      .toBeGreaterThanOrEqual(2);
    // The charts draw their lines in (recharts dashes a line while it grows): drawn once none is.
    await page.waitForFunction(() =>
      [...document.querySelectorAll('.recharts-line-curve')].every(
        (line) => !line.hasAttribute('stroke-dasharray'),
      ),
    );
    await screenshot(page, 'jobs-runtime-metrics');
    await page.getByRole('button', { name: 'Kill', exact: true }).click();
    await page
      .getByRole('dialog', { name: 'Kill job' })
      .getByRole('button', { name: 'Kill' })
      .click();
    await page.getByText('Job killed').waitFor();
  });

  it('ran without errors in the page', () => {
    expect(errors).toEqual([]);
  });
});
