import type { Locator, Page } from 'playwright-core';
import { drawn, settled } from './browser.js';

/**
 * What a walk through the console found: every response the server refused with 403 (the
 * console offered something the user may not do), and every disabled action without its reason.
 */
export interface Findings {
  forbidden: string[];
  unexplained: string[];
  /** The actions clicked, area by area: the walk's own record, printed when it fails. */
  clicked: string[];
}

/** Requests of each page still on their way, streams aside (a log follows for ever). */
const inFlight = new WeakMap<Page, Set<unknown>>();

/** Records the 403s the page receives, and which of its API requests are still on their way. */
export function watchForbidden(page: Page, findings: Findings) {
  const open = new Set<unknown>();
  inFlight.set(page, open);
  const isApi = (url: string) => /\/apis?\//.test(url) && !/log|stream|watch|events/.test(url);
  page.on('request', (r) => {
    if (isApi(r.url())) open.add(r);
  });
  page.on('requestfinished', (r) => open.delete(r));
  page.on('requestfailed', (r) => open.delete(r));
  page.on('response', (r) => {
    if (r.status() === 403)
      findings.forbidden.push(
        `${r.request().method()} ${new URL(r.url()).pathname} (${page.url()})`,
      );
  });
}

/** An action's name as a user reads it: its accessible label, else its text. */
const nameOf = async (action: Locator) =>
  ((await action.getAttribute('aria-label')) ?? (await action.innerText())).trim().slice(0, 60);

/**
 * Until what the last event changed is drawn (its effects' requests sent), the page's API
 * requests (the permission engine's answers among them) are back, and its transitions ended: what
 * it offers then is what it means to offer. An answer may start more requests, so the frames are
 * waited for again until none is left on its way.
 */
async function quiet(page: Page) {
  const open = inFlight.get(page);
  for (;;) {
    await drawn(page);
    if (!open || open.size === 0) break;
    await drained(page, open);
  }
  await settled(page);
}

/** Resolves once every request in `open` has finished or failed (watchForbidden removes them). */
const drained = (page: Page, open: Set<unknown>) =>
  new Promise<void>((resolve) => {
    const check = () => {
      if (open.size > 0) return;
      page.off('requestfinished', check);
      page.off('requestfailed', check);
      resolve();
    };
    page.on('requestfinished', check);
    page.on('requestfailed', check);
    check();
  });

/**
 * A disabled action says why (ui/WhyNot.tsx): its wrapper, hovered, shows a tooltip with text.
 * Returns the reason, or null when none shows.
 */
export async function reasonOf(page: Page, action: Locator): Promise<string | null> {
  await page.mouse.move(0, 0);
  await action.locator('xpath=..').hover({ force: true });
  const tip = page.getByRole('tooltip');
  // Long enough for a loaded machine; only a reason that never shows waits it out (and fails).
  try {
    await tip.first().waitFor({ state: 'visible', timeout: 15_000 });
    return (await tip.first().innerText()).trim() || null;
  } catch {
    return null;
  } finally {
    await page.mouse.move(0, 0);
  }
}

const ACTIONS = 'button, [role=tab], [role=menuitem]';
const disabled = async (a: Locator) =>
  (await a.isDisabled()) ||
  (await a.getAttribute('aria-disabled')) === 'true' ||
  (await a.getAttribute('data-disabled')) !== null;

/** Every disabled action inside `scope` says why; `where` names the place in the findings. */
export async function checkReasons(page: Page, scope: Locator, where: string, f: Findings) {
  for (const action of await scope.locator(ACTIONS).all()) {
    if (!(await action.isVisible()) || !(await disabled(action))) continue;
    if (!(await reasonOf(page, action))) f.unexplained.push(`${where}: ${await nameOf(action)}`);
  }
}

/** The dialog or drawer a click opened, if any. */
const overlay = (page: Page) => page.locator('[role=dialog]:visible').last();

/**
 * After a click opened a dialog or drawer: a drawer's disabled actions say why (a dialog's submit
 * may wait for its input instead); the confirming action (the last button), when enabled, is
 * sent, so that a refusal shows as a 403; then it is closed.
 */
async function handleOverlay(page: Page, where: string, f: Findings) {
  const dialog = overlay(page);
  if (!(await dialog.count())) return;
  if (await dialog.evaluate((d) => !!d.closest('.mantine-Drawer-root, .mantine-Drawer-inner')))
    await checkReasons(page, dialog, where, f);
  const buttons = dialog.locator('button:visible');
  const last = buttons.last();
  if ((await buttons.count()) > 1 && !(await disabled(last))) {
    const name = await nameOf(last);
    if (!/^(Close|Cancel)$/i.test(name)) {
      f.clicked.push(`${where} → ${name}`);
      await last.click();
      await quiet(page);
    }
  }
  for (let i = 0; i < 3 && (await overlay(page).count()); i++) {
    await page.keyboard.press('Escape');
    await settled(page);
  }
}

/**
 * One area of the console at `url`: the disabled actions of the page say why; every enabled
 * action of its main part is clicked (a dialog it opens is sent when it may be, then closed; a
 * page it opens is left again), and so is every tab, with the same checks on each.
 */
export async function walkArea(page: Page, url: string, f: Findings, skip: RegExp = /$^/) {
  await page.goto(url);
  await page.locator('main').waitFor();
  await quiet(page);
  const where = new URL(page.url()).pathname;
  const main = page.locator('main');
  const tabs = await main.getByRole('tab').all();
  const tabNames: string[] = [];
  for (const t of tabs) if (!(await disabled(t))) tabNames.push(await nameOf(t));
  await walkHere(page, url, where, f, skip);
  for (const name of tabNames) {
    await page.goto(url);
    await quiet(page);
    const tab = main.getByRole('tab', { name, exact: true });
    if (!(await tab.count()) || (await tab.getAttribute('aria-selected')) === 'true') continue;
    await tab.click();
    await quiet(page);
    f.clicked.push(`${where} tab ${name}`);
    await walkHere(page, page.url(), `${where} › ${name}`, f, skip);
  }
}

/** The buttons a walk clicks; tabs are walked as places of their own. */
const BUTTONS = 'button:visible:not([role=tab])';

async function walkHere(page: Page, url: string, where: string, f: Findings, skip: RegExp) {
  const main = page.locator('main');
  await checkReasons(page, main, where, f);
  const names: string[] = [];
  for (const b of await main.locator(BUTTONS).all())
    if (!(await disabled(b))) names.push(await nameOf(b));
  for (const [i, name] of names.entries()) {
    if (!name || skip.test(name)) continue;
    const action = main.locator(BUTTONS).nth(i);
    // The page may have moved on (a click re-rendered it): find the action by its name again.
    const again = (await nameOf(action).catch(() => '')) === name ? action : byName(main, name);
    if (!(await again.count()) || (await disabled(again))) continue;
    f.clicked.push(`${where} → ${name}`);
    await again.click();
    await quiet(page);
    await handleOverlay(page, `${where} → ${name}`, f);
    if (page.url() !== url) {
      await page.goto(url);
      await quiet(page);
    }
  }
}

const byName = (scope: Locator, name: string) =>
  scope.getByRole('button', { name, exact: true }).first();

/** A menu of the shell (cluster and project pickers, user menu): its disabled items say why. */
export async function walkMenu(page: Page, opener: RegExp, f: Findings) {
  await page.getByRole('button', { name: opener }).first().click();
  const menu = page.locator('[role=menu]:visible, [role=listbox]:visible, [role=dialog]:visible');
  await menu.first().waitFor();
  await quiet(page);
  await checkReasons(page, menu.first(), `menu ${opener.source}`, f);
  f.clicked.push(`menu ${opener.source}`);
  await page.keyboard.press('Escape');
  await settled(page);
}
