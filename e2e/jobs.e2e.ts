import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { screenshot } from './support/browser.js';
import type { RunningServer } from './support/server.js';
import { useJourney } from './support/journey.js';
import { ADMIN, signIn } from './support/session.js';

const CONTEXT = 'org=acme&cluster=default&project=vision';
/** The job is a tiny HTTP server; the process runtime gives it its port in PORT. */
const SERVE = `${process.execPath} -e "require('http').createServer((q,s)=>s.end('hello from the job')).listen(process.env.PORT,()=>console.log('listening on '+process.env.PORT))"`;

/**
 * Jobs in Debian's Chromium against the real server on the process runtime: create a job from
 * the template's form, watch it run, follow its logs, open its HTTP endpoint, kill it, rerun it.
 */
describe('jobs journey', () => {
  let server: RunningServer;
  let page: Page;
  let errors: string[];
  let firstJob = '';

  useJourney('jobs', (j) => ({ server, page, errors } = j), {
    env: () => ({ ORRERY_RUNTIME: 'process' }),
    context: { viewport: { width: 1400, height: 900 } },
  });

  it('shows the empty list, then creates a job from the form', async () => {
    await page.goto(server.url);
    await signIn(page, ADMIN.email, ADMIN.password);
    await page.getByRole('banner').waitFor();
    await page.goto(`${server.url}/jobs?${CONTEXT}`);
    await page.getByText('No jobs found').waitFor();

    await page.getByRole('link', { name: 'Create new job' }).click();
    await page.getByRole('heading', { name: 'Create new job' }).waitFor();
    // A required field left empty keeps the form from being sent.
    await page.getByRole('button', { name: 'Create job' }).click();
    await page.getByText('Required').first().waitFor();

    await page.getByLabel('Image').fill('busybox');
    await page.getByLabel('Name', { exact: true }).fill('web-job');
    await page.getByLabel('Command').fill(SERVE);
    await page.getByLabel('HTTP').check();
    await page.getByRole('button', { name: 'Create job' }).click();
    await page.waitForURL((u) => /^\/jobs\/job-[0-9a-f-]+$/.test(u.pathname));
    firstJob = new URL(page.url()).pathname.split('/')[2]!;
    await page.getByRole('heading', { name: 'web-job' }).waitFor();
    // The page refreshes every 10 s; the job is running well before.
    await page.getByText('running', { exact: true }).first().waitFor({ timeout: 60_000 });
    await screenshot(page, 'jobs-details');
  });

  it('follows the logs of the running job', async () => {
    await page.getByRole('tab', { name: 'Logs' }).click();
    await page.getByText(/listening on \d+/).waitFor();
    await screenshot(page, 'jobs-logs');
  });

  it('opens the job’s HTTP endpoint in a new tab, signed in through the console', async () => {
    const open = page.getByRole('button', { name: 'Open', exact: true });
    const [tab] = await Promise.all([page.context().waitForEvent('page'), open.click()]);
    await tab.getByText('hello from the job').waitFor();
    // At the job's own host, the one-time ticket gone from the address bar.
    const at = `http://${firstJob}.jobs.localhost:${new URL(server.url).port}/`;
    expect(tab.url()).toBe(at);
    await tab.close();
    // Without the console's session the endpoint asks for a sign-in.
    const anonymous = await fetch(at);
    expect(anonymous.status).toBe(401);
  });

  it('kills the job after confirmation', async () => {
    await page.getByRole('button', { name: 'Kill', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Kill job' });
    await dialog.getByRole('button', { name: 'Kill' }).click();
    await page.getByText('Job killed').waitFor();
    await page.getByText('cancelled', { exact: true }).first().waitFor();
  });

  it('reruns it as a new job and opens that one', async () => {
    await page.getByRole('button', { name: 'Rerun' }).click();
    await page.getByText('Job web-job rerun').waitFor();
    await page.waitForURL(
      (u) => /^\/jobs\/job-[0-9a-f-]+$/.test(u.pathname) && !u.pathname.endsWith(firstJob),
    );
    await page.getByText('running', { exact: true }).first().waitFor({ timeout: 60_000 });
  });

  it('lists both jobs with the status filter on all', async () => {
    await page.goto(`${server.url}/jobs?${CONTEXT}&status=all`);
    await page
      .getByRole('cell', { name: /web-job/ })
      .first()
      .waitFor();
    expect(await page.getByRole('row').count()).toBe(3); // header and two jobs
    await screenshot(page, 'jobs-list');
  });

  it('ran without errors in the page', () => {
    expect(errors).toEqual([]);
  });
});
