import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { screenshot } from './support/browser.js';
import type { RunningServer } from './support/server.js';
import { useJourney } from './support/journey.js';
import { ADMIN, send, signIn } from './support/session.js';

const CONTEXT = 'org=acme&cluster=default&project=vision';

/**
 * Cost beside each resource in Debian's Chromium against the real server on the process runtime:
 * a job on a costly preset that ran and ended shows what metering charged it in the jobs list and
 * on its page, a running one its rate, and a disk its credits per day at the cluster's price.
 */
describe('cost beside each resource', () => {
  let server: RunningServer;
  let page: Page;
  let errors: string[];
  let token = '';
  let doneJob = '';

  const api = (method: string, path: string, body?: unknown) =>
    send(server, token, method, path, body) as Promise<any>; // eslint-disable-line @typescript-eslint/no-explicit-any
  const job = (name: string, command: string) =>
    api('POST', '/api/v1/jobs?from_preset', {
      ...{ cluster_name: 'default', org_name: 'acme', project_name: 'vision' },
      ...{ preset_name: 'costly', image: 'busybox', name, command },
    });

  useJourney('costs', (j) => ({ server, page, errors, token } = j), {
    env: () => ({ ORRERY_RUNTIME: 'process' }),
    context: { viewport: { width: 1400, height: 900 } },
  });

  it('shows what an ended job cost in the jobs list and on its page', async () => {
    await api('PATCH', '/apis/admin/v1/orgs/acme/balance', { credits: '1000' });
    // 3600 credits an hour: a credit a second, so a few seconds of running show plainly.
    await api('POST', '/api/v1/clusters/default/orchestrator/resource_presets', {
      ...{ name: 'costly', cpu: 0.1, memory: 2 ** 27, credits_per_hour: '3600' },
    });
    doneJob = (await job('short-run', 'sleep 3')).id;
    await job('long-run', 'sleep 600');
    for (let i = 0; i < 100; i++) {
      const j = await api('GET', `/api/v1/jobs/${doneJob}`);
      if (j.status === 'succeeded' && Number(j.total_price_credits) > 0) break;
      await new Promise((ok) => setTimeout(ok, 200));
    }
    const ended = await api('GET', `/api/v1/jobs/${doneJob}`);
    expect(Number(ended.total_price_credits)).toBeGreaterThan(2);

    await page.goto(server.url);
    await signIn(page, ADMIN.email, ADMIN.password);
    await page.getByRole('banner').waitFor();
    await page.goto(`${server.url}/jobs?${CONTEXT}&status=all`);
    await page.getByRole('columnheader', { name: 'Credits' }).waitFor();
    const shortRow = page.getByRole('row').filter({ hasText: 'short-run' });
    const total = Number(ended.total_price_credits).toLocaleString('en-US', {
      maximumFractionDigits: 4,
    });
    await shortRow.getByText(`${total} credits`).waitFor();
    const longRow = page.getByRole('row').filter({ hasText: 'long-run' });
    await longRow.getByText('3,600 credits/h').waitFor();
    await screenshot(page, 'costs-jobs-list');

    await page.goto(`${server.url}/jobs/${doneJob}?${CONTEXT}`);
    const side = page.getByRole('group', { name: 'Credits' });
    await side.getByText(`${total} credits`).waitFor();
    await screenshot(page, 'costs-job-page');
    expect(errors).toEqual([]);
  });

  it("shows a disk's credits per day at the cluster's price", async () => {
    await api('PATCH', '/apis/admin/v1/clusters/default/disk_price', {
      credits_per_day_per_gb: '0.2',
    });
    await api('POST', '/api/v1/disk', {
      ...{ org_name: 'acme', project_name: 'vision', cluster_name: 'default' },
      ...{ storage: 10 ** 10, name: 'datasets' },
    });
    // The console reads the price from the cluster configuration, read once at sign-in.
    await page.goto(`${server.url}/disks?${CONTEXT}`);
    await page.reload();
    const row = page.getByRole('row').filter({ hasText: 'datasets' });
    await row.getByText('2 credits/day').waitFor();
    await page.getByRole('button', { name: 'Create new disk' }).click();
    await page.getByLabel('Storage', { exact: false }).first().fill('50');
    await page.getByText('Costs 10 credits/day').waitFor();
    await screenshot(page, 'costs-disks');
    expect(errors).toEqual([]);
  });
});
