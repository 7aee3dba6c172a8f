import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { screenshot } from './support/browser.js';
import type { RunningServer } from './support/server.js';
import { useJourney } from './support/journey.js';
import { ADMIN, send, signIn } from './support/session.js';

const CONTEXT = 'org=acme&cluster=default&project=vision';
const SCOPE = { cluster_name: 'default', org_name: 'acme', project_name: 'vision' };
/** A page that says which host and path it was asked for. */
const PAGE = `${process.execPath} -e "require('http').createServer((q,s)=>{s.setHeader('content-type','text/html');s.end('<h1>report '+q.url+'</h1>')}).listen(process.env.PORT,'0.0.0.0')"`;

/**
 * The job page as it follows a job: the status the server pushes (a job that ends shows as
 * ended though the page reads nothing), and the job's addresses, by id and by name, opened
 * from its Details as links by the signed-in owner.
 */
describe('a job followed live', () => {
  let server: RunningServer;
  let page: Page;
  let token: string;
  let errors: string[];

  useJourney('jobs-live', (j) => ({ server, page, token, errors } = j), {
    env: () => ({ ORRERY_RUNTIME: 'process' }),
    context: { viewport: { width: 1400, height: 900 } },
  });

  const create = async (body: Record<string, unknown>) =>
    (await send(server, token, 'POST', '/api/v1/jobs?from_preset', {
      ...SCOPE,
      preset_name: 'cpu-small',
      image: 'busybox',
      ...body,
    })) as { id: string };

  it('shows a job that ends as ended, from the status the server pushes', async () => {
    await page.goto(server.url);
    await signIn(page, ADMIN.email, ADMIN.password);
    await page.getByRole('banner').waitFor();
    // The job runs until the test writes the file it waits for.
    const job = await create({
      name: 'waiter',
      command: 'sh -c "while [ ! -e /flag/go ]; do sleep 0.1; done; echo done"',
      volumes: [{ src_storage_uri: 'storage:flag', dst_path: '/flag', read_only: true }],
    });
    await page.goto(`${server.url}/jobs/${job.id}?${CONTEXT}`);
    const header = page.getByRole('heading', { name: 'waiter', level: 2 }).locator('..');
    await header.getByText('running', { exact: true }).waitFor({ timeout: 60_000 });
    // From now on the page reads nothing: its 10 s refresh fails. Only the push can tell it.
    const ownJob = (u: URL) => u.pathname === `/api/v1/jobs/${job.id}`;
    await page.route(ownJob, (route) => route.abort());
    await send(server, token, 'PUT', '/api/v1/storage/acme/vision/flag/go?op=CREATE', 'go');
    await header.getByText('succeeded', { exact: true }).waitFor({ timeout: 60_000 });
    expect(await page.getByText('Why is this job waiting?').count()).toBe(0);
    const details = page.getByRole('region', { name: 'Job' });
    await details.getByText('succeeded', { exact: true }).waitFor();
    await screenshot(page, 'jobs-live-ended');
    await page.unroute(ownJob);
  });

  it('opens the job’s address by name from its Details, signed in through the console', async () => {
    const job = await create({
      name: 'report',
      command: PAGE,
      http: { port: 8080, requires_auth: true },
    });
    await page.goto(`${server.url}/jobs/${job.id}?${CONTEXT}`);
    const header = page.getByRole('heading', { name: 'report', level: 2 }).locator('..');
    await header.getByText('running', { exact: true }).waitFor({ timeout: 60_000 });
    const details = page.getByRole('region', { name: 'Job' });
    const port = new URL(server.url).port;
    const byName = details.getByRole('link', {
      name: `http://report--vision--acme.jobs.localhost:${port}/`,
    });
    await screenshot(page, 'jobs-live-addresses');
    for (const link of [byName, details.getByRole('link', { name: /^http:\/\/job-/ })]) {
      const [tab] = await Promise.all([page.context().waitForEvent('page'), link.click()]);
      // Through the console's /open-job, back at the job's host, the ticket gone from the address.
      await tab.getByRole('heading', { name: 'report /' }).waitFor({ timeout: 60_000 });
      const at = new URL(tab.url());
      expect(at.hostname).toMatch(/\.jobs\.localhost$/);
      expect(at.search).toBe('');
      await tab.close();
    }
    // In a browser signed in nowhere, the address with a path goes through the console's
    // sign-in and lands on that path.
    const elsewhere = await page.context().browser()!.newContext();
    const tab = await elsewhere.newPage();
    await tab.goto(`http://report--vision--acme.jobs.localhost:${port}/daily?day=1`);
    await signIn(tab, ADMIN.email, ADMIN.password);
    await tab.getByRole('heading', { name: 'report /daily?day=1' }).waitFor({ timeout: 60_000 });
    await screenshot(tab, 'jobs-live-by-name');
    await elsewhere.close();
  });

  it('keeps a status badge whole beside long tags in the jobs list', async () => {
    await create({
      name: 'tagged',
      image: 'ghcr.io/some-organization/a-rather-long-image-name:with-a-long-tag',
      command: 'sleep 300',
      tags: [
        'instance_id:0b8e1f9e-2a33-4c1b-9f5e-6d0c3a7b9e21',
        'app-revision:1',
        'project:some_flow_name_here',
      ],
    });
    await page.setViewportSize({ width: 1100, height: 800 });
    await page.goto(`${server.url}/jobs?${CONTEXT}&status=all`);
    const row = page.getByRole('row').filter({ hasText: 'tagged' });
    const badge = row.locator('.mantine-Badge-label', { hasText: /^running$/ });
    await badge.waitFor({ timeout: 60_000 });
    // Its whole word is drawn: the label is as wide as its text, not cut to "RU…".
    expect(await badge.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
    await screenshot(page, 'jobs-live-list');
    await page.setViewportSize({ width: 1400, height: 900 });
  });

  it('ran without errors in the page', () => {
    expect(errors).toEqual([]);
  });
});
