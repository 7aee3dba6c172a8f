import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { screenshot, settled } from './support/browser.js';
import type { RunningServer } from './support/server.js';
import { useJourney } from './support/journey.js';
import { ADMIN, signIn, signUpElsewhere, type NewAccount } from './support/session.js';

const CONTEXT = 'org=acme&cluster=default&project=vision';
const MANAGER: NewAccount = {
  name: 'Quota Manager',
  username: 'quota-manager',
  email: 'quota-manager@example.test',
  password: 'manager-password-1',
};

/**
 * Resource quotas in Debian's Chromium against the real server (docs/quotas.md): an
 * organization's manager splits the organization's quota among its projects in Organization
 * settings → Quotas, is refused with the server's figures when the projects' quotas would exceed
 * it, and sees the project's quota in Project settings → Quota; the administrator's cluster page
 * lists every organization's quota.
 */
describe('quotas', () => {
  let server: RunningServer;
  let page: Page;
  let errors: string[];
  let token = '';

  useJourney('quotas', (j) => ({ server, page, errors, token } = j), {
    prepare: async (j) => {
      ({ server, token } = j);
      await signUpElsewhere(j.browser, j.server, MANAGER);
      await api('POST', '/apis/admin/v1/orgs/acme/users', {
        user_name: MANAGER.username,
        role: 'manager',
      });
      await api('POST', '/api/v1/projects', {
        name: 'speech',
        org_name: 'acme',
        cluster_name: 'default',
      });
      await api('PATCH', '/apis/admin/v1/clusters/default/orgs/acme/quota', {
        quota: { cpu: 8, memory: 32e9, nvidia_gpu: 4, borrowing_limit: { nvidia_gpu: 2 } },
      });
      await api('PUT', '/apis/admin/v1/clusters/default/orgs/acme/projects/speech/quota', {
        nvidia_gpu: 2,
      });
    },
  });

  const api = async (method: string, path: string, body: unknown) => {
    const res = await fetch(`${server.url}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    expect(res.status, `${method} ${path}: ${await res.clone().text()}`).toBeLessThan(300);
  };
  const toast = (text: string) => page.getByText(text, { exact: true }).first().waitFor();

  it('lets an organization manager split the quota, refused beyond it with the figures', async () => {
    await page.goto(`${server.url}/org-settings/quotas?${CONTEXT}`);
    await signIn(page, MANAGER.email, MANAGER.password);
    await page.getByLabel('I have read and agree to the Terms of Use').check();
    await page.getByRole('button', { name: 'I agree' }).click();
    await page.getByRole('heading', { name: 'acme on default cluster' }).waitFor();
    // The organization's own quota is the cluster's managers': not offered here.
    await page.getByRole('button', { name: 'Edit quota of vision' }).waitFor();
    expect(await page.getByRole('button', { name: 'Edit quota', exact: true }).count()).toBe(0);
    await page.getByRole('button', { name: 'Edit quota of vision' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('NVIDIA GPUs: Quota').fill('3');
    await dialog.getByLabel('NVIDIA GPUs: Borrowing limit').fill('1');
    await dialog.getByLabel('Memory, GB: Quota').fill('16');
    await dialog.getByRole('button', { name: 'Save' }).click();
    const refusal =
      "NVIDIA GPUs: the nominal quotas of the projects of acme add up to 5 NVIDIA GPUs, more than the organization's 4 NVIDIA GPUs";
    await dialog.getByText(refusal).waitFor();
    await settled(page);
    await screenshot(page, 'quotas-01-split-refused');
    await dialog.getByLabel('NVIDIA GPUs: Quota').fill('2');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await toast('Quota of vision project is updated');
    const row = page.getByRole('row', { name: /vision/ });
    await row.getByText('0 / 2 (+1)').waitFor();
    await row.getByText('0 MB / 16 GB').waitFor();
    await settled(page);
    await screenshot(page, 'quotas-02-org-settings');
  });

  it("shows the project's quota and use, and every organization's on the cluster page", async () => {
    const context = await page.context().browser()!.newContext();
    const admin = await context.newPage();
    try {
      // The organization's managers split its quota without being in its projects: the project's
      // own members (here its creator) read it in project settings.
      await admin.goto(`${server.url}/project-settings/quota?${CONTEXT}`);
      await signIn(admin, ADMIN.email, ADMIN.password);
      const gpus = admin.getByRole('row', { name: /NVIDIA GPUs/ });
      await gpus.getByRole('cell', { name: '2', exact: true }).waitFor();
      await gpus.getByRole('cell', { name: '1', exact: true }).waitFor();
      await admin.getByRole('button', { name: 'Edit quota of vision' }).waitFor();
      await settled(admin);
      await screenshot(admin, 'quotas-03-project-settings');
      await admin.goto(`${server.url}/admin/clusters/default/organizations?${CONTEXT}`);
      const acme = admin.getByRole('row', { name: /acme/ });
      await acme.getByRole('cell', { name: '4 (+2)' }).waitFor();
      await admin.getByRole('button', { name: 'Edit quota of acme' }).click();
      const dialog = admin.getByRole('dialog');
      await dialog.getByLabel('CPU cores: Quota').fill('-1');
      await dialog.getByRole('button', { name: 'Save' }).click();
      await dialog.getByText('CPU must be a positive number').waitFor();
      await dialog.getByLabel('CPU cores: Quota').fill('12');
      await settled(admin);
      await screenshot(admin, 'quotas-04-admin-edit');
      await dialog.getByRole('button', { name: 'Save' }).click();
      await admin.getByText('Quota of acme is updated', { exact: true }).first().waitFor();
      await acme.getByRole('cell', { name: '12', exact: true }).waitFor();
      await settled(admin);
      await screenshot(admin, 'quotas-05-admin-cluster-orgs');
    } finally {
      await context.close();
    }
    expect(errors).toEqual([]);
  });
});
