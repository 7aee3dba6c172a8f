import { describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { screenshot, watchErrors } from './support/browser.js';
import { linkFromOutbox, type RunningServer } from './support/server.js';
import { useJourney } from './support/journey.js';
import { ADMIN, signIn, signUpElsewhere, tokenFor } from './support/session.js';

const CONTEXT = 'org=acme&cluster=default&project=vision';
const BOB = {
  name: 'Bob Member',
  username: 'bob',
  email: 'bob@example.test',
  password: 'bob-password-1',
};

/**
 * The billing console's rules of who sees what, in Debian's Chromium against the real server and
 * the production build: a manager's credits open the buy dialog; a member who manages nothing sees
 * their own lower limit, no purchase, no Billing entry, and a refusal at `/org-billing`.
 */
describe('billing in the console: who may buy and see billing', () => {
  let server: RunningServer;
  let browser: Browser;
  let page: Page;
  let errors: string[];
  let token: string;

  useJourney('billing-console', (j) => ({ server, browser, page, errors, token } = j), {
    prepare: async (j) => {
      await signUpElsewhere(j.browser, j.server, BOB);
      // A verified address and accepted terms: the user menu then shows its organization section.
      const verify = await j.browser.newPage();
      await verify.goto(linkFromOutbox(j.server.dataDir, BOB.email, '/oidc/verify'));
      await verify.close();
      const bobToken = await tokenFor(j.server, BOB.email);
      const send = (method: string, path: string, body: object, as: string) =>
        fetch(`${j.server.url}${path}`, {
          method,
          headers: { authorization: `Bearer ${as}`, 'content-type': 'application/json' },
          body: JSON.stringify(body),
        });
      await send('PUT', '/api/v1/users/bob/profile', { terms_accepted: true }, bobToken);
      await send('PATCH', '/apis/admin/v1/orgs/acme/balance', { credits: '250' }, j.token);
      const added = await send(
        'POST',
        '/apis/admin/v1/orgs/acme/users',
        { user_name: 'bob', role: 'user', balance: { credits: '30' } },
        j.token,
      );
      if (added.status !== 201) throw new Error(`adding bob: ${await added.text()}`);
    },
  });

  it("opens the buy dialog from a manager's credits", async () => {
    await page.goto(`${server.url}/?${CONTEXT}`);
    await signIn(page, ADMIN.email, ADMIN.password);
    const credits = page.getByRole('button', { name: 'Credits: Buy credits' });
    await credits.getByText('250').waitFor();
    await credits.click();
    await page.getByRole('dialog', { name: 'Buy credits' }).waitFor();
    await screenshot(page, 'billing-console-01-dialog');
    expect(errors).toEqual([]);
  });

  it('buys 10 credits through the test checkout and sees the balance and the ledger change', async () => {
    const credits = page.getByRole('button', { name: 'Credits: Buy credits' });
    const dialog = page.getByRole('dialog', { name: 'Buy credits' });
    if (!(await dialog.isVisible())) await credits.click();
    await dialog.getByRole('button', { name: '10', exact: true }).click();
    await dialog.getByRole('button', { name: 'Buy', exact: true }).click();
    // Orrery's own checkout (ORRERY_PAYMENTS defaults to test on loopback), marked as such.
    await page.waitForURL(/\/billing\/checkout\//);
    await page.getByText('Test checkout: no money moves').waitFor();
    await screenshot(page, 'billing-console-03-checkout');
    await page.getByRole('button', { name: 'Pay', exact: true }).click();
    await page
      .getByText('Purchase of 10 credits was successful. The credits will be added shortly.')
      .waitFor();
    await credits.getByText('260').waitFor();
    expect(page.url()).not.toContain('buy-credits-status');
    await screenshot(page, 'billing-console-04-bought');
    await page.goto(`${server.url}/org-billing/credits?${CONTEXT}`);
    const ledger = page.getByRole('table').filter({ hasText: 'purchase' });
    await ledger.getByText('purchase').first().waitFor();
    await screenshot(page, 'billing-console-05-ledger');
    expect(errors).toEqual([]);
  });

  it('shows what a job cost on the usage tab, grouped by project', async () => {
    // A preset at 3,600 credits an hour: a job of a few seconds costs a few credits.
    const api = (method: string, path: string, body: object) =>
      fetch(`${server.url}${path}`, {
        method,
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    const preset = await api('POST', '/api/v1/clusters/default/orchestrator/resource_presets', {
      name: 'dear',
      cpu: 0.1,
      memory: 128 * 2 ** 20,
      credits_per_hour: '3600',
    });
    expect(preset.status, await preset.clone().text()).toBeLessThan(300);
    const job = await api('POST', '/api/v1/jobs?from_preset', {
      cluster_name: 'default',
      org_name: 'acme',
      project_name: 'vision',
      preset_name: 'dear',
      image: 'busybox',
      command: 'sleep 3',
    });
    expect(job.status, await job.clone().text()).toBe(202);
    const id = ((await job.json()) as { id: string }).id;
    for (let i = 0; i < 200; i++) {
      const j = (await (
        await fetch(`${server.url}/api/v1/jobs/${id}`, {
          headers: { authorization: `Bearer ${token}` },
        })
      ).json()) as { status: string };
      if (j.status === 'succeeded') break;
      await new Promise((r) => setTimeout(r, 250));
    }
    await page.goto(`${server.url}/org-billing/usage?${CONTEXT}`);
    // The chart and table by day first (the default), then by project and day.
    await page.getByRole('cell', { name: 'Jobs' }).first().waitFor();
    await page.getByRole('group', { name: 'Group by' }).getByText('Project').click();
    await page.getByRole('cell', { name: 'vision' }).first().waitFor();
    const total = page.getByRole('row').filter({ hasText: 'Total' });
    // About 3 credits for 3 s at 3,600 an hour (start-up and the end's rounding aside).
    expect(
      Number((await total.locator('td, th').last().textContent())!.replace(/,/g, '')),
    ).toBeGreaterThan(2.5);
    await screenshot(page, 'billing-console-06-usage');
    expect(errors).toEqual([]);
  });

  it('shows a member their own lower limit, with no purchase and no Billing', async () => {
    const context = await browser.newContext();
    const bob = await context.newPage();
    const bobErrors = watchErrors(bob);
    try {
      await bob.goto(`${server.url}/?${CONTEXT}`);
      await signIn(bob, BOB.email, BOB.password);
      await bob.getByRole('banner').getByText('30', { exact: true }).waitFor();
      expect(await bob.getByRole('button', { name: /Buy credits/ }).count()).toBe(0);
      await bob.getByRole('button', { name: BOB.name }).click();
      await bob.getByRole('menuitem', { name: 'People' }).waitFor();
      expect(await bob.getByRole('menuitem', { name: 'Billing' }).count()).toBe(0);
      await bob.keyboard.press('Escape');
      await bob.goto(`${server.url}/org-billing/usage?${CONTEXT}`);
      await bob.getByText('Only organization managers can see billing').waitFor();
      await screenshot(bob, 'billing-console-02-refused');
      expect(bobErrors).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
