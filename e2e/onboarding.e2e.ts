import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { launch, screenshot, watchErrors } from './support/browser.js';
import {
  linkFromOutbox,
  removeDataDir,
  startServer,
  type RunningServer,
} from './support/server.js';
import { backInConsole, signIn } from './support/session.js';

/**
 * A newcomer's first two minutes, in Debian's Chromium against the real server process and the
 * production build: sign up, verify through the outbox, terms, organization, project, the main
 * layout with its context in the URL, switching, logging out, and coming back.
 */
describe('newcomer journey', () => {
  let server: RunningServer;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let errors: string[];
  const email = 'ada@example.test';
  const password = 'analytical-engine';

  beforeAll(async () => {
    server = await startServer();
    browser = await launch();
    context = await browser.newContext();
    page = await context.newPage();
    errors = watchErrors(page);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    removeDataDir(server.dataDir);
  });

  afterEach(async (ctx) => {
    if (ctx.task.result?.state === 'fail')
      await screenshot(page, `failed-${ctx.task.name.slice(0, 40)}`);
  });

  const params = () => new URL(page.url()).searchParams;

  it('signs up on the provider’s page and comes back to the console', async () => {
    await page.goto(server.url);
    await page.getByRole('heading', { name: 'Welcome to Orrery' }).waitFor();
    await screenshot(page, '01-auth');
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.getByRole('heading', { name: 'Create your account' }).waitFor();
    await page.getByLabel('Name', { exact: true }).fill('Ada Lovelace');
    await page.getByLabel('Username').fill('ada');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(password);
    await screenshot(page, '02-signup');
    await page.getByRole('button', { name: 'Create account' }).click();
    await backInConsole(page, server);
  });

  it('verifies the e-mail through the link in the outbox', async () => {
    const link = linkFromOutbox(server.dataDir, email, '/oidc/verify');
    await page.goto(link);
    await page.getByText('Your e-mail address is verified').waitFor();
    await page.goto(server.url);
  });

  it('asks for the terms, with "I agree" enabled only after the tick', async () => {
    const agree = page.getByRole('button', { name: 'I agree' });
    await agree.waitFor();
    await screenshot(page, '03-terms');
    expect(await agree.isDisabled()).toBe(true);
    await page.getByLabel('I have read and agree to the Terms of Use').check();
    expect(await agree.isEnabled()).toBe(true);
    await agree.click();
  });

  it('creates an organization from the onboarding page, checking the name', async () => {
    await page.getByText('You are not a member of any organization yet.').waitFor();
    await screenshot(page, '04-onboarding');
    await page.getByRole('link', { name: 'Create organization' }).click();
    await page.waitForURL(/\/create-org/);
    const name = page.getByLabel('Organization name');
    await name.fill('Bad_Name');
    await page.getByText('Organization name is invalid').waitFor();
    await name.fill('Vision Lab');
    await page.getByText('Will be created as "vision-lab"').waitFor();
    await screenshot(page, '05-create-org');
    await page.getByRole('button', { name: 'Create' }).click();
    await page.getByText("You don't have any projects").waitFor();
    await page.waitForURL((u) => u.searchParams.get('cluster') === 'default');
    expect(params().get('org')).toBe('vision-lab');
    await screenshot(page, '06-no-projects');
  });

  it('creates a project and lands in the main layout with the context in the URL', async () => {
    await page.getByRole('link', { name: 'Create project' }).first().click();
    await page.waitForURL(/\/new-project/);
    await page.getByLabel('Project name').fill('First Model');
    await page.getByText('Will be created as "first-model"').waitFor();
    await page.getByRole('button', { name: 'Create' }).click();
    await page.waitForURL((u) => u.searchParams.get('project') === 'first-model');
    expect(params().get('org')).toBe('vision-lab');
    expect(params().get('cluster')).toBe('default');
    await page.getByRole('banner').waitFor();
    await screenshot(page, '07-main-layout');
  });

  it('keeps the context across a reload', async () => {
    await page.reload();
    await page.getByRole('banner').waitFor();
    expect(params().get('project')).toBe('first-model');
    await page.getByRole('banner').getByText('first-model').waitFor();
  });

  it('switches to another project through the project popover', async () => {
    await page.getByRole('banner').getByRole('button', { name: 'Project: first-model' }).click();
    await page.getByRole('menuitem', { name: 'Create new project' }).click();
    await page.waitForURL(/\/new-project/);
    await screenshot(page, '08-new-project');
    await page.getByLabel('Project name').fill('Second');
    await page.getByText('Will be created as "second"').waitFor();
    await page.getByRole('button', { name: 'Create' }).click();
    await page.waitForURL((u) => u.searchParams.get('project') === 'second');
    await page
      .getByRole('banner')
      .getByRole('button', { name: /second/ })
      .click();
    await page.getByRole('menuitem', { name: 'first-model' }).click();
    await page.waitForURL((u) => u.searchParams.get('project') === 'first-model');
    await screenshot(page, '09-switched');
  });

  it('logs out back to the sign-in page', async () => {
    await page.getByRole('button', { name: /Ada Lovelace/ }).click();
    await page.getByRole('menuitem', { name: 'Log out' }).click();
    await page.getByRole('heading', { name: 'Welcome to Orrery' }).waitFor({ timeout: 60_000 });
  });

  it('brings a returning user back to the saved context', async () => {
    await signIn(page, email, password);
    await page.waitForURL((u) => u.searchParams.get('project') === 'first-model');
    expect(params().get('org')).toBe('vision-lab');
    await page.getByRole('banner').waitFor();
  });

  it('ran without errors in the page', () => {
    expect(errors).toEqual([]);
  });
});
