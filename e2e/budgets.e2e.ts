import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { drawn, screenshot, settled } from './support/browser.js';
import { useJourney } from './support/journey.js';
import type { RunningServer } from './support/server.js';
import { ADMIN, signIn } from './support/session.js';

const CONTEXT = 'org=acme&cluster=default&project=vision';
/** A credit a second: a few seconds of a job make a spend worth showing. */
const PRESET = { name: 'metered', cpu: 0.1, memory: 100e6, credits_per_hour: '3600' };

/** The budget alerts in the server's outbox, decoded enough to read. */
const alertMails = (dataDir: string) => {
  const dir = join(dataDir, 'outbox');
  return readdirSync(dir)
    .map((f) =>
      readFileSync(join(dir, f), 'utf8')
        .replace(/=\r?\n/g, '')
        .replace(/\r?\n /g, ' '),
    )
    .filter((m) => m.includes('Subject: Budget alert'));
};

async function until<T>(what: string, probe: () => Promise<T | undefined>, ms = 90_000) {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await probe();
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error(`${what}: not in ${ms} ms`);
    await new Promise((r) => setTimeout(r, 500));
  }
}

/**
 * Budgets against real metering, in Debian's Chromium against the real server: a job on a priced
 * preset spends credits, the manager sets the organization's budget just above it on the Credits
 * tab, the banner says the threshold is crossed, and the checker mails the managers.
 */
describe('budgets in the console', () => {
  let server: RunningServer;
  let page: Page;
  let errors: string[];
  let spent = 0;

  useJourney('budgets', (j) => ({ server, page, errors } = j), {
    // The checker looks every second rather than every minute: the mail follows the budget soon.
    env: () => ({ ORRERY_RUNTIME: 'process', ORRERY_BUDGET_CHECK_INTERVAL: '1s' }),
    context: { viewport: { width: 1400, height: 900 } },
    prepare: async (j) => {
      const api = (method: string, path: string, body?: object) =>
        fetch(`${j.server.url}${path}`, {
          method,
          headers: { authorization: `Bearer ${j.token}`, 'content-type': 'application/json' },
          ...(body ? { body: JSON.stringify(body) } : {}),
        });
      const preset = await api(
        'POST',
        '/api/v1/clusters/default/orchestrator/resource_presets',
        PRESET,
      );
      if (preset.status !== 201) throw new Error(`preset: ${await preset.text()}`);
      const job = await api('POST', '/api/v1/jobs?from_preset', {
        cluster_name: 'default',
        org_name: 'acme',
        project_name: 'vision',
        preset_name: PRESET.name,
        image: 'busybox',
        command: 'sleep 4',
      });
      if (job.status !== 202) throw new Error(`job: ${await job.text()}`);
      // Everything the new server ever charged, whatever today's date.
      const total = async () => {
        const r = await api(
          'GET',
          '/apis/billing/v1/usage?org_name=acme&start_date=2000-01-01T00:00:00&end_date=2100-01-01T00:00:00',
        );
        return Number(((await r.json()) as { total: string }).total);
      };
      // Charged, and the job over: the total no longer moves.
      let last = -1;
      spent = await until('the job charged', async () => {
        const now = await total();
        const done = now >= 3 && now === last;
        last = now;
        if (!done) await new Promise((r) => setTimeout(r, 1500));
        return done ? now : undefined;
      });
    },
  });

  it("sets the organization's budget and shows the month's spend against it", async () => {
    await page.goto(`${server.url}/org-billing/credits?${CONTEXT}`);
    await signIn(page, ADMIN.email, ADMIN.password);
    const table = page.getByRole('table', { name: 'Budgets' });
    const org = table.getByRole('row').filter({ hasText: 'Organization' });
    await org.getByText('No budget').waitFor();
    await org.getByRole('button', { name: 'Set budget' }).click();
    const dialog = page.getByRole('dialog', { name: 'Budget of acme' });
    // Just above what the job spent: past 90 %, short of 100 %.
    const budget = Number((spent / 0.93).toFixed(2));
    await dialog.getByLabel('Monthly budget (credits)').fill(String(budget));
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.waitFor({ state: 'hidden' });
    const percent = Math.floor((spent / budget) * 100);
    await org.getByText(`of ${budget.toLocaleString('en-US')} credits (${percent}%)`).waitFor();
    expect(percent).toBeGreaterThanOrEqual(90);
    await table
      .getByRole('row')
      .filter({ hasText: 'Project vision' })
      .getByText('No budget')
      .waitFor();
    await page.getByText('Budgets', { exact: true }).scrollIntoViewIfNeeded();
    await screenshot(page, 'budgets-settings');
  });

  it('shows the banner until dismissed, and mails the managers once', async () => {
    await page.goto(`${server.url}/?${CONTEXT}`);
    const banner = page.getByRole('alert').filter({ hasText: 'has used' });
    await banner.waitFor();
    expect(await banner.textContent()).toMatch(
      /acme has used 9\d% of its [\d.]+-credit budget for [A-Z][a-z]+/,
    );
    await screenshot(page, 'budgets-banner');
    await banner.getByRole('button', { name: 'Dismiss' }).click();
    await banner.waitFor({ state: 'detached' });
    // Read again: the alerts are still crossed, and the banner stays dismissed.
    const alerts = page.waitForResponse(
      (r) => new URL(r.url()).pathname === '/apis/billing/v1/orgs/acme/budget_alerts',
    );
    await page.reload();
    expect(((await (await alerts).json()) as { items: unknown[] }).items).toHaveLength(1);
    await page.getByRole('banner').waitFor();
    await drawn(page);
    await settled(page);
    expect(await banner.count()).toBe(0);

    // The 50 % and 90 % thresholds, crossed together, make one mail.
    const mails = await until('the alert mail', async () => {
      const m = alertMails(server.dataDir);
      return m.length ? m : undefined;
    });
    expect(mails).toHaveLength(1);
    expect(mails[0]).toContain(`To: ${ADMIN.email}`);
    expect(mails[0]).toContain('Threshold: 90%');
    expect(mails[0]).toContain(`${server.url}/org-billing`);
    expect(errors).toEqual([]);
  });
});
