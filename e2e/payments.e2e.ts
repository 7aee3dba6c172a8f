import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launch, screenshot, watchErrors } from './support/browser.js';
import { removeDataDir, startServer, type RunningServer } from './support/server.js';
import { ADMIN, send, signIn, tokenFor } from './support/session.js';

/**
 * The test checkout in Debian's Chromium against the real server (ORRERY_PAYMENTS defaults to
 * test on loopback): a manager opens the checkout the buy call answered, sees that no money moves,
 * pays, and comes back to the console with the credits added once and in the ledger; a second
 * checkout is cancelled and adds nothing.
 */
describe('test checkout', () => {
  let server: RunningServer;
  let browser: Browser;
  let page: Page;
  let errors: string[];
  let token = '';

  const api = (method: string, path: string, body?: unknown) =>
    send(server, token, method, path, body) as Promise<any>; // eslint-disable-line @typescript-eslint/no-explicit-any
  const balance = async () =>
    (
      (await api('GET', '/apis/admin/v1/orgs')) as { name: string; balance: { credits: string } }[]
    ).find((o) => o.name === 'crew')!.balance.credits;
  const buy = async (credits: number) =>
    (
      await api('POST', '/apis/billing/v1/buy_credits', {
        org_name: 'crew',
        amount_in_cents: credits * 100,
        success_url: `${server.url}/org-billing?org=crew`,
        cancel_url: `${server.url}/org-billing?org=crew`,
      })
    ).checkout_url as string;

  beforeAll(async () => {
    server = await startServer();
    token = await tokenFor(server);
    await api('PUT', '/api/v1/users/admin/profile', { terms_accepted: true });
    await api('POST', '/api/v1/orgs', { name: 'crew' });
    await api('PATCH', '/apis/admin/v1/orgs/crew/balance', { credits: '5' });
    browser = await launch();
    page = await (await browser.newContext()).newPage();
    errors = watchErrors(page);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    if (server) removeDataDir(server.dataDir);
  });
  afterEach(async (ctx) => {
    if (ctx.task.result?.state === 'fail')
      await screenshot(page, `payments-failed-${ctx.task.name.slice(0, 30)}`);
  });

  it('pays 10 credits through the test checkout and comes back with them added once', async () => {
    expect(await api('GET', '/apis/billing/v1/payments')).toEqual({ mode: 'test' });
    const url = await buy(10);
    expect(url).toMatch(new RegExp(`^${server.url}/billing/checkout/[0-9a-f-]{36}$`));
    await page.goto(url);
    await signIn(page, ADMIN.email, ADMIN.password);
    await page.getByText('Test checkout: no money moves').waitFor();
    await page.getByRole('cell', { name: 'crew' }).waitFor();
    await page.getByRole('cell', { name: '$10.00 (not charged)' }).waitFor();
    await screenshot(page, 'payments-01-test-checkout');
    await page.getByRole('button', { name: 'Pay' }).click();
    await page.waitForURL((u) => u.pathname === '/org-billing');
    const back = new URL(page.url());
    expect(back.searchParams.get('buy-credits-status')).toBe('success');
    expect(back.searchParams.get('credits')).toBe('10');
    expect(await balance()).toBe('15');
    // Going back to the paid checkout offers nothing more to pay.
    await page.goto(url);
    await page.getByText('This checkout is already paid.').waitFor();
    expect(await page.getByRole('button', { name: 'Pay' }).count()).toBe(0);
    const ledger = await api('GET', '/apis/billing/v1/orgs/crew/ledger');
    expect(ledger.items.map((i: { kind: string; credits: string }) => [i.kind, i.credits])).toEqual(
      [
        ['purchase', '10.0000'],
        ['set', '5.0000'],
      ],
    );
    expect(errors).toEqual([]);
  });

  it('cancels a checkout back to the console, adding nothing', async () => {
    await page.goto(await buy(1000));
    await page.getByRole('button', { name: 'Cancel' }).click();
    await page.waitForURL((u) => u.pathname === '/org-billing');
    expect(new URL(page.url()).searchParams.get('buy-credits-status')).toBe('failure');
    expect(await balance()).toBe('15');
    expect(errors).toEqual([]);
  });
});
