import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { screenshot } from './support/browser.js';
import type { RunningServer } from './support/server.js';
import { useJourney } from './support/journey.js';
import { ADMIN, send as call, signIn } from './support/session.js';

const CONTEXT = 'org=acme&cluster=default&project=vision';

/**
 * The reports tabs in Debian's Chromium against the real server: two jobs run and are charged,
 * then each of the four reports shows them (organization, cluster, project, admin cluster page
 * with its node pools sampled by the server).
 */
describe('reports tabs', () => {
  let server: RunningServer;
  let page: Page;
  let errors: string[];

  useJourney('reports', (j) => ({ server, page, errors } = j), {
    prepare: async (j) => {
      const send = (method: string, path: string, body?: object) =>
        call(j.server, j.token, method, path, body) as Promise<{ id: string; status: string }>;
      await send('PATCH', '/apis/admin/v1/orgs/acme/balance', { credits: '250' });
      const jobs = await Promise.all(
        ['sleep 4', 'sleep 2'].map((command) =>
          send('POST', '/api/v1/jobs?from_preset', {
            cluster_name: 'default',
            org_name: 'acme',
            project_name: 'vision',
            preset_name: 'cpu-small',
            image: 'busybox',
            command,
          }),
        ),
      );
      for (const { id } of jobs)
        for (let i = 0; i < 600; i++) {
          const { status } = await send('GET', `/api/v1/jobs/${id}`);
          if (['succeeded', 'failed', 'cancelled'].includes(status)) break;
          await new Promise((r) => setTimeout(r, 100));
        }
    },
  });

  const topRows = () =>
    page.getByRole('region', { name: 'Most expensive jobs and apps' }).getByRole('row');

  it("shows the organization's usage by category, project and user, and its top jobs", async () => {
    await page.goto(`${server.url}/org-settings/reports?${CONTEXT}`);
    await signIn(page, ADMIN.email, ADMIN.password);
    await topRows().nth(2).waitFor();
    await page.getByRole('figure', { name: 'Usage by category over time' }).waitFor();
    const byProject = page.getByRole('region', { name: 'Usage by project' });
    await byProject.getByRole('cell', { name: 'vision' }).waitFor();
    await screenshot(page, 'reports-01-organization');
    expect(errors).toEqual([]);
  });

  it("shows the organization's usage on the cluster, and the project's", async () => {
    await page.goto(`${server.url}/cluster-settings/reports?${CONTEXT}`);
    await topRows().nth(2).waitFor();
    await screenshot(page, 'reports-02-cluster');
    await page.goto(`${server.url}/project-settings/reports?${CONTEXT}`);
    await topRows().nth(2).waitFor();
    expect(await page.getByRole('region', { name: 'Usage by project' }).count()).toBe(0);
    await screenshot(page, 'reports-03-project');
    expect(errors).toEqual([]);
  });

  it('shows the whole cluster and its node pools on the admin cluster page', async () => {
    await page.goto(`${server.url}/admin/clusters/default/reports?${CONTEXT}`);
    await topRows().nth(2).waitFor();
    const pools = page.getByRole('region', { name: 'Node pool utilisation' });
    await pools.getByRole('figure').first().waitFor();
    await screenshot(page, 'reports-04-admin-cluster');
    expect(errors).toEqual([]);
  });
});
