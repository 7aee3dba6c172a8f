import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { screenshot, settled } from './support/browser.js';
import { unreadableTexts } from './support/readability.js';
import type { RunningServer } from './support/server.js';
import { useJourney } from './support/journey.js';
import { ADMIN, signIn } from './support/session.js';

const CONTEXT = 'org=acme&cluster=default&project=vision';
/** Pages of every kind: lists, tables, tabs, charts, forms; all inside the main layout. */
const PAGES = [
  '/',
  '/apps',
  '/files',
  '/buckets',
  '/disks',
  '/images',
  '/secrets',
  '/jobs',
  '/jobs/new',
  '/flows',
  '/org-settings/users',
  '/org-settings/reports',
  '/project-settings/general',
  '/org-billing/usage',
  '/invites',
  '/admin/users',
];

/**
 * Console polish in Debian's Chromium against the real server, the browser set to a dark system
 * scheme: the console follows it and lets the user choose Light, Dark or System, kept in the
 * browser; every page's text is readable in dark (contrast measured, charts included); every page
 * starts at the same margin; the keyboard shortcuts; the favicon; a toast beside an open drawer.
 */
describe('console polish', () => {
  let server: RunningServer;
  let page: Page;
  let errors: string[];
  let jobId = '';
  /** With a running job's pages: details (code), observability (live charts), logs. */
  const pages = () => [
    ...PAGES,
    `/jobs/${jobId}`,
    `/jobs/${jobId}/observability`,
    `/jobs/${jobId}/logs`,
  ];

  useJourney('polish', (j) => ({ server, page, errors } = j), {
    env: () => ({ ORRERY_RUNTIME: 'process' }),
    context: { viewport: { width: 1280, height: 800 }, colorScheme: 'dark' },
    prepare: async (j) => {
      const res = await fetch(`${j.server.url}/api/v1/jobs?from_preset`, {
        method: 'POST',
        headers: { authorization: `Bearer ${j.token}`, 'content-type': 'application/json' },
        body: JSON.stringify({
          cluster_name: 'default',
          org_name: 'acme',
          project_name: 'vision',
          preset_name: 'cpu-small',
          image: 'busybox',
          name: 'polish-job',
          command: 'sh -c "echo started; sleep 600"',
        }),
      });
      expect(res.status, await res.clone().text()).toBeLessThan(300);
      jobId = ((await res.json()) as { id: string }).id;
    },
  });

  const scheme = () =>
    page.evaluate(() => document.documentElement.getAttribute('data-mantine-color-scheme'));
  const open = async (path: string) => {
    await page.goto(`${server.url}${path}${path.includes('?') ? '&' : '?'}${CONTEXT}`);
    await page.locator('main').getByRole('heading').first().waitFor();
    // Pages that poll never go quiet on the network: wait for their first data instead.
    await page.waitForFunction(() => !document.querySelector('main .mantine-Loader-root'));
    await settled(page);
  };
  const userMenu = () =>
    page
      .locator('nav')
      .getByRole('button', { name: /Administrator|admin/ })
      .last();

  it('follows the system scheme, and keeps Light, Dark or System chosen in the user menu', async () => {
    await page.goto(`${server.url}/?${CONTEXT}`);
    await signIn(page, ADMIN.email, ADMIN.password);
    await page.getByRole('banner').waitFor();
    expect(await scheme()).toBe('dark');

    await userMenu().click();
    const choice = (name: string) => page.getByRole('menuitem', { name });
    expect(await choice('System').getAttribute('aria-current')).toBe('true');
    await screenshot(page, 'polish-01-user-menu-dark');
    await choice('Light').click();
    expect(await scheme()).toBe('light');
    await page.reload();
    await page.getByRole('banner').waitFor();
    expect(await scheme()).toBe('light');
    expect(await page.evaluate(() => localStorage.getItem('orrery-color-scheme'))).toBe('light');

    await userMenu().click();
    await choice('System').click();
    expect(await scheme()).toBe('dark');
    expect(await choice('System').getAttribute('aria-current')).toBe('true');
    await page.keyboard.press('Escape');
  });

  /** How far the page's first content sits from the layout's padding edge (0: exactly on it). */
  const contentOffset = () =>
    page.evaluate(() => {
      const main = document.querySelector('main')!;
      const style = getComputedStyle(main);
      const box = main.getBoundingClientRect();
      let minLeft = Infinity;
      let minTop = Infinity;
      for (const el of main.querySelectorAll('*')) {
        const r = el.getBoundingClientRect();
        // Visually hidden helpers are 1 px boxes clipped away: not content.
        if (r.width <= 1 || r.height <= 1 || !el.checkVisibility()) continue;
        minLeft = Math.min(minLeft, r.left);
        minTop = Math.min(minTop, r.top);
      }
      return {
        left: Math.round(minLeft - box.left - parseFloat(style.paddingLeft)),
        top: Math.round(minTop - box.top - parseFloat(style.paddingTop)),
      };
    });

  it('finds faint text when there is some', async () => {
    await open('/');
    await page.locator('main').evaluate((main) => {
      const probe = document.createElement('p');
      probe.style.color = '#333';
      probe.textContent = 'faint';
      main.append(probe);
    });
    expect((await unreadableTexts(page)).map((u) => u.text)).toEqual(['faint']);
  });

  it('starts every page at the layout’s margin, and keeps its text readable in dark', async () => {
    const offsets: Record<string, { left: number; top: number }> = {};
    const unreadable: Record<string, unknown> = {};
    for (const path of pages()) {
      await open(path);
      offsets[path] = await contentOffset();
      const bad = await unreadableTexts(page);
      if (bad.length) unreadable[path] = bad;
      await screenshot(page, `polish-02-dark${path.replace(jobId, 'job').replaceAll('/', '-')}`);
    }
    expect(offsets).toEqual(Object.fromEntries(pages().map((p) => [p, { left: 0, top: 0 }])));
    expect(unreadable).toEqual({});
  }, 400_000);

  it('keeps the assistant panel readable in dark', async () => {
    await open('/');
    await page.getByRole('button', { name: 'Open assistant' }).click();
    const panel = page.getByRole('dialog', { name: 'Assistant' });
    await panel.getByRole('button', { name: 'How do I follow the logs of a job?' }).click();
    await panel
      .getByText(/^Answered by the /)
      .first()
      .waitFor();
    await settled(page);
    await screenshot(page, 'polish-03-dark-assistant');
    expect(await unreadableTexts(page)).toEqual([]);
    await page.keyboard.press('Escape');
  });

  it('jumps with g and a letter, focuses search with /, lists the shortcuts with ?', async () => {
    await open('/');
    await page.keyboard.press('g');
    await page.keyboard.press('f');
    await page.waitForURL((u) => u.pathname === '/files');
    expect(new URL(page.url()).searchParams.get('project')).toBe('vision');
    await page.locator('main').getByRole('heading').first().waitFor();

    await page.keyboard.press('/');
    const search = page.getByRole('textbox', { name: 'Search' });
    expect(await search.evaluate((el) => el === document.activeElement)).toBe(true);
    // Typed into a field, the keys are text.
    await page.keyboard.type('gj');
    expect(await search.inputValue()).toBe('gj');
    expect(new URL(page.url()).pathname).toBe('/files');
    await search.fill('');
    await search.blur();

    await page.keyboard.press('?');
    const help = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
    await help.waitFor();
    for (const action of [
      'Go to Jobs',
      'Go to Administration',
      'Focus the search field of the page',
    ])
      await help.getByRole('cell', { name: action }).waitFor();
    await screenshot(page, 'polish-04-shortcuts');
    await page.keyboard.press('Escape');
    await help.waitFor({ state: 'hidden' });

    await page.keyboard.press('g');
    await page.keyboard.press('j');
    await page.waitForURL((u) => u.pathname === '/jobs');
  });

  it('links its own SVG favicon', async () => {
    const href = await page.locator('link[rel="icon"]').getAttribute('href');
    const res = await fetch(new URL(href!, server.url));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^image\/svg\+xml/);
    expect(await res.text()).toMatch(/^<svg [^>]*xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
  });

  it('shows a toast beside an open drawer, never over its title', async () => {
    await open('/buckets');
    await page.getByRole('button', { name: 'Create bucket' }).click();
    const create = page.getByRole('dialog', { name: 'Create bucket' });
    await create.getByLabel('Name').fill('polish');
    await create.getByRole('button', { name: 'Create' }).click();
    await page.getByText('Bucket polish was created').waitFor();

    await page.getByRole('button', { name: 'Bucket polish' }).click();
    const drawer = page.getByRole('dialog', { name: 'polish' });
    await drawer.getByRole('button', { name: 'Create credentials' }).click();
    const credentials = page.getByRole('dialog', { name: 'Create credentials' });
    await credentials.getByLabel('Name').fill('laptop');
    await credentials.getByRole('button', { name: 'Create' }).click();
    const toast = page
      .locator('.mantine-Notification-root')
      .filter({ hasText: 'Bucket credentials laptop was created' });
    await toast.waitFor();
    await settled(page);
    const title = (await drawer.locator('.mantine-Drawer-header').boundingBox())!;
    const note = (await toast.boundingBox())!;
    const overlaps =
      note.x < title.x + title.width &&
      title.x < note.x + note.width &&
      note.y < title.y + title.height &&
      title.y < note.y + note.height;
    await screenshot(page, 'polish-05-toast-and-drawer');
    expect({ title, note, overlaps }).toMatchObject({ overlaps: false });
  });

  it('shows a disk’s toast beside its drawer, never over its title', async () => {
    await page.goto(`${server.url}/disks?${CONTEXT}`);
    await page.getByRole('button', { name: 'Create new disk' }).click();
    const dialog = page.getByRole('dialog', { name: 'Create new disk' });
    await dialog.getByLabel('Storage').fill('1');
    await dialog.getByLabel('Name', { exact: true }).fill('toast-check');
    await dialog.getByRole('button', { name: 'Create' }).click();
    const toast = page.getByText('Disk toast-check was created');
    await toast.waitFor();
    await page
      .getByRole('row', { name: /toast-check/ })
      .getByRole('cell')
      .first()
      .click();
    const drawer = page.getByRole('dialog', { name: 'toast-check' });
    await drawer.waitFor();
    await settled(page);
    expect(await toast.isVisible()).toBe(true);
    await screenshot(page, 'shell-toast-drawer');
    const title = (await drawer.locator('.mantine-Drawer-title').boundingBox())!;
    const note = (await page.locator('.mantine-Notification-root').first().boundingBox())!;
    const overlaps =
      note.x < title.x + title.width &&
      title.x < note.x + note.width &&
      note.y < title.y + title.height &&
      title.y < note.y + note.height;
    expect(overlaps, JSON.stringify({ title, note })).toBe(false);
  });

  it('ran without errors in the page', () => {
    expect(errors).toEqual([]);
  });
});
