import { cpus } from 'node:os';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { screenshot } from './support/browser.js';
import type { RunningServer } from './support/server.js';
import { useJourney } from './support/journey.js';
import { ADMIN, signIn } from './support/session.js';

const CONTEXT = 'org=acme&cluster=default&project=vision';
const WAIT_TITLE = 'Why is this job waiting?';

/**
 * Why every job waits, in Debian's Chromium against the real server on the process runtime: each
 * job asks for every core of this machine, so of three jobs one runs and two wait. The job page
 * says why and where, the jobs list shows each waiting job's place, the administrator's Queue tab
 * shows the organization's standing and every job; once the running job ends the next one starts
 * and its panel goes (docs/scheduling.md).
 */
describe('why every job waits, in the console', () => {
  let server: RunningServer;
  let page: Page;
  let errors: string[];
  let token = '';
  const ids: string[] = [];

  const api = async (method: string, path: string, body?: object) => {
    const res = await fetch(`${server.url}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${token}`,
        ...(body && { 'content-type': 'application/json' }),
      },
      body: body && JSON.stringify(body),
    });
    const text = await res.text();
    expect(res.status, `${method} ${path}: ${text}`).toBeLessThan(300);
    return text ? JSON.parse(text) : null;
  };
  const statusOf = async (id: string) =>
    ((await api('GET', `/api/v1/jobs/${id}`)) as { status: string }).status;

  useJourney('scheduling', (j) => ({ server, page, errors, token } = j), {
    env: () => ({ ORRERY_RUNTIME: 'process', ORRERY_KILL_GRACE_SECONDS: '1' }),
    context: { viewport: { width: 1400, height: 900 } },
  });

  it('runs one job that takes the whole machine and keeps two waiting', async () => {
    await api('POST', '/api/v1/clusters/default/orchestrator/resource_presets', {
      name: 'whole',
      cpu: cpus().length,
      memory: 64 * 2 ** 20,
      credits_per_hour: '1',
    });
    for (const name of ['first', 'second', 'third']) {
      const job = await api('POST', '/api/v1/jobs?from_preset', {
        cluster_name: 'default',
        org_name: 'acme',
        project_name: 'vision',
        preset_name: 'whole',
        image: 'busybox',
        name,
        command: 'sleep 600',
      });
      ids.push(job.id);
      // One at a time: the first is running before the next is sent, so the order is certain.
      if (name === 'first')
        await expect.poll(() => statusOf(job.id), { timeout: 60_000 }).toBe('running');
    }
    expect(await statusOf(ids[1])).toBe('pending');
  });

  it('says on the job page why the job waits and where it stands', async () => {
    await page.goto(`${server.url}/jobs/${ids[2]}?${CONTEXT}`);
    await signIn(page, ADMIN.email, ADMIN.password);
    const panel = page.getByRole('region', { name: WAIT_TITLE });
    await panel.waitFor();
    await panel.getByText('#2 in the queue', { exact: true }).waitFor();
    await panel
      .getByText(/^Waiting for free capacity: no node has the CPU the job needs/)
      .waitFor();
    await panel.getByRole('table', { name: 'Free capacity by node' }).waitFor();
    await screenshot(page, 'scheduling-01-job-page');
  });

  it('marks each waiting job in the jobs list with its place', async () => {
    await page.goto(`${server.url}/jobs?${CONTEXT}&status=all`);
    const row = (name: string) =>
      page.getByRole('row').filter({ has: page.getByRole('link', { name, exact: true }) });
    await row('second').getByText('#1 in queue').waitFor();
    await row('third').getByText('#2 in queue').waitFor();
    expect(
      await row('first')
        .getByText(/in queue/)
        .count(),
    ).toBe(0);
    await screenshot(page, 'scheduling-02-jobs-list');
  });

  it("shows the administrator the cluster's queue", async () => {
    await page.goto(`${server.url}/admin/clusters/default/queue?${CONTEXT}`);
    await page.getByRole('tab', { name: 'Queue', selected: true }).waitFor();
    const standings = page.getByRole('table', { name: 'By organization and project' });
    const acme = standings.getByRole('row').filter({ hasText: /^acme/ });
    await acme.waitFor();
    // Running 1, waiting 2: the last two cells of the organization's row.
    expect(await acme.locator('td').nth(-2).innerText()).toBe('1');
    expect(await acme.locator('td').nth(-1).innerText()).toBe('2');
    const jobs = page.getByRole('table', { name: 'Waiting and running jobs' });
    const firstCells = (n: number) => jobs.getByRole('row').nth(n).locator('td').first();
    expect(await firstCells(1).innerText()).toBe('#1');
    expect(await firstCells(2).innerText()).toBe('#2');
    expect(await firstCells(3).innerText()).toBe('—');
    await jobs.getByRole('row').nth(1).getByText('second').waitFor();
    const capacity = page.getByRole('table', { name: 'Capacity of the cluster' });
    // Every core is held by the running job.
    expect(await capacity.getByRole('row').nth(1).innerText()).toBe(
      `CPU\t${cpus().length} CPU\t${cpus().length} CPU\t0 CPU`,
    );
    await screenshot(page, 'scheduling-03-queue-tab');
  });

  it('drops the panel once the job starts', async () => {
    await page.goto(`${server.url}/jobs/${ids[1]}?${CONTEXT}`);
    const panel = page.getByRole('region', { name: WAIT_TITLE });
    await panel.getByText(/in the queue/).waitFor();
    await api('DELETE', `/api/v1/jobs/${ids[0]}`);
    // The page reads the job again every 10 seconds.
    await page.getByText('running', { exact: true }).first().waitFor({ timeout: 60_000 });
    await panel.waitFor({ state: 'detached' });
    await Promise.all(ids.slice(1).map((id) => api('DELETE', `/api/v1/jobs/${id}`)));
  });

  it('ran without errors in the page', () => {
    expect(errors).toEqual([]);
  });
});
