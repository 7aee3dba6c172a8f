import { describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { screenshot, settled } from './support/browser.js';
import type { RunningServer } from './support/server.js';
import { useJourney } from './support/journey.js';
import { ADMIN, signIn } from './support/session.js';

const CONTEXT = 'org=acme&cluster=default&project=vision';

/**
 * The assistant in Debian's Chromium against the real server and its embedded engine (no model):
 * the panel opens from the top bar, a suggested question gets a cited answer, the citation opens
 * the docs at its heading, fullscreen comes and goes, and a changed mode is the next answer's.
 */
describe('assistant chat', () => {
  let server: RunningServer;
  let context: BrowserContext;
  let page: Page;
  let errors: string[];

  useJourney('assistant', (j) => ({ server, context, page, errors } = j), {
    context: { viewport: { width: 1280, height: 860 } },
  });

  const panel = () => page.getByRole('dialog', { name: 'Assistant' });
  const answers = () => panel().getByText(/^Answered by the /);
  const width = async () => (await panel().boundingBox())!.width;

  it('opens the panel from the top bar, connected, with three suggested questions', async () => {
    await page.goto(`${server.url}/?${CONTEXT}`);
    await signIn(page, ADMIN.email, ADMIN.password);
    await page.getByRole('banner').waitFor();
    await page.getByRole('button', { name: 'Open assistant' }).click();
    await panel().getByRole('status', { name: 'Connected' }).waitFor();
    await settled(page);
    expect(await width()).toBe(380);
    const suggestions = panel().getByRole('button', { name: /\?$/ });
    expect(await suggestions.count()).toBe(3);
    await screenshot(page, 'assistant-empty');
  });

  it('answers a suggested question with citations to the docs', async () => {
    await panel().getByRole('button', { name: 'How do I follow the logs of a job?' }).click();
    await answers().first().waitFor();
    const marker = panel().getByRole('link', { name: '[1]' }).first();
    expect(await marker.getAttribute('href')).toMatch(/^\/docs\/[\w-]+\.md#[\w-]+$/);
    const sources = panel().getByRole('group', { name: 'Sources' }).first();
    expect(await sources.getByRole('link').count()).toBeGreaterThan(0);
    expect(await answers().first().textContent()).toMatch(
      /embedded engine · hybrid · \d iteration/,
    );
    await screenshot(page, 'assistant-answer');
  });

  it('opens a cited docs page in a new tab at its heading', async () => {
    const marker = panel().getByRole('link', { name: '[1]' }).first();
    const href = (await marker.getAttribute('href'))!;
    const anchor = decodeURIComponent(href.split('#')[1]);
    const [docs] = await Promise.all([context.waitForEvent('page'), marker.click()]);
    await docs.waitForLoadState();
    expect(new URL(docs.url()).pathname + new URL(docs.url()).hash).toBe(href);
    const heading = docs.locator(`[id="${anchor}"]`);
    expect(await heading.evaluate((el) => /^H[1-6]$/.test(el.tagName))).toBe(true);
    expect(await heading.isVisible()).toBe(true);
    // The browser scrolled to the heading: it is on the tab's first screen (its top may sit a
    // fraction of a pixel above the edge once scrolled there: fractional line heights).
    const box = (await heading.boundingBox())!;
    expect(box.y + box.height).toBeGreaterThan(0);
    expect(box.y).toBeGreaterThan(-1);
    expect(box.y).toBeLessThan(docs.viewportSize()!.height);
    await docs.close();
  });

  it('goes fullscreen with Ctrl+Shift+F and back with Escape', async () => {
    await panel().getByRole('textbox').focus();
    await page.keyboard.press('Control+Shift+F');
    await settled(page);
    expect(await width()).toBe(1280);
    await screenshot(page, 'assistant-fullscreen');
    await page.keyboard.press('Escape');
    await settled(page);
    expect(await width()).toBe(380);
    expect(await panel().isVisible()).toBe(true);
  });

  it('uses a changed mode for the next answer, and keeps it after a reload', async () => {
    await panel().getByRole('button', { name: 'Chat settings' }).click();
    // The segmented control's radios are visually hidden behind their labels.
    await page
      .locator('label')
      .filter({ hasText: /^local$/ })
      .click();
    expect(await page.getByRole('radio', { name: 'local' }).isChecked()).toBe(true);
    await panel().getByRole('button', { name: 'Chat settings' }).click();
    const box = panel().getByRole('textbox');
    await box.fill('How do I install an app?');
    await box.press('Enter');
    await expect.poll(() => answers().count()).toBe(2);
    expect(await answers().nth(1).textContent()).toMatch(/· local ·/);

    await page.reload();
    await page.getByRole('button', { name: 'Open assistant' }).click();
    await panel().getByRole('status', { name: 'Connected' }).waitFor();
    await panel().getByRole('button', { name: 'Chat settings' }).click();
    expect(await page.getByRole('radio', { name: 'local' }).isChecked()).toBe(true);
    expect(errors).toEqual([]);
  });
});
