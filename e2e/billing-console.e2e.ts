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

  useJourney('billing-console', (j) => ({ server, browser, page, errors } = j), {
    prepare: async (j) => {
      await signUpElsewhere(j.browser, j.server, BOB);
      // A verified address and accepted terms: the user menu then shows its organization section.
      const verify = await j.browser.newPage();
      await verify.goto(linkFromOutbox(j.server.dataDir, BOB.email, '/oidc/verify'));
      await verify.close();
      const bobToken = tokenFor(j.server, BOB.email);
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
