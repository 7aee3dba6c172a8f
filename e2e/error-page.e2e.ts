import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { screenshot } from './support/browser.js';
import type { RunningServer } from './support/server.js';
import { useJourney } from './support/journey.js';
import { ADMIN, signIn } from './support/session.js';

const CONTEXT = 'org=acme&cluster=default&project=vision';

/**
 * The generic error page in Debian's Chromium against the real server,
 * with and without a configured support address. The failure is a real one a deployment meets: a
 * page's code cannot be downloaded (here the browser aborts the request for the Administration
 * chunk, as a dropped connection or a replaced build would). With an address the page names it
 * in a support mail; without one it offers no mail at all, in the page and in the user menu.
 */
describe.each([
  { name: 'with a support address', support: 'help@example.test' },
  { name: 'without a support address', support: null },
])('error page $name', ({ name, support }) => {
  let server: RunningServer;
  let page: Page;
  let errors: string[];
  const shot = name.replaceAll(' ', '-');

  useJourney(`error-page-${shot}`, (j) => ({ server, page, errors } = j), {
    env: (): Record<string, string> => (support ? { ORRERY_SUPPORT_EMAIL: support } : {}),
  });

  it('shows the error page when a page cannot load, and recovers on Reload', async () => {
    await page.goto(`${server.url}/?${CONTEXT}`);
    await signIn(page, ADMIN.email, ADMIN.password);
    await page.getByRole('banner').waitFor();

    await page.route(/\/assets\/AdminPage-[\w-]+\.js$/, (route) => route.abort());
    await page.goto(`${server.url}/admin/users?${CONTEXT}`);
    await page.getByRole('heading', { name: 'Something went wrong' }).waitFor();
    const mailtos = page.locator('a[href^="mailto:"]');
    if (support) {
      await page.getByText('Please contact support by e-mail').waitFor();
      const link = page.getByRole('link', { name: support });
      const href = (await link.getAttribute('href'))!;
      expect(href).toMatch(/^mailto:help%40example\.test\?subject=/);
      expect(decodeURIComponent(href)).toContain('Page: ');
      expect(decodeURIComponent(href)).toContain('/admin/users');
      expect(await mailtos.count()).toBe(1);
    } else {
      await page
        .getByText('Please reload the page. If it happens again, tell your administrator.')
        .waitFor();
      expect(await mailtos.count()).toBe(0);
    }
    await screenshot(page, `error-page-${shot}`);
    // The page said why in the browser console, for whoever looks.
    expect(errors.join('\n')).toMatch(/AdminPage|dynamically imported module|Importing a module/);

    await page.unroute(/\/assets\/AdminPage-[\w-]+\.js$/);
    await page.getByRole('button', { name: 'Reload' }).click();
    await page.getByRole('tab', { name: 'Users' }).waitFor();
  });

  it('offers contact support in the user menu only with an address', async () => {
    await page
      .locator('nav')
      .getByRole('button', { name: /Administrator|admin/ })
      .last()
      .click();
    await page.getByRole('menuitem', { name: 'Log out' }).waitFor();
    const item = page.getByRole('menuitem', { name: 'Contact support' });
    expect(await item.count()).toBe(support ? 1 : 0);
    if (support) expect(await item.getAttribute('href')).toMatch(/^mailto:help%40example\.test\?/);
    expect(await page.locator('a[href^="mailto:"]').count()).toBe(support ? 1 : 0);
    await screenshot(page, `error-page-menu-${shot}`);
  });
});
