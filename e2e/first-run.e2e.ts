import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launch, screenshot, watchErrors } from './support/browser.js';
import {
  linkFromOutbox,
  removeDataDir,
  startServer,
  type RunningServer,
} from './support/server.js';
import { ADMIN, signIn, tokenFor } from './support/session.js';

/**
 * A first run with no dead ends, in Debian's Chromium against the real server: the
 * fresh system administrator reaches Administration with no organization and, creating one,
 * lands in it; an unverified newcomer
 * is told before acting, resends the mail, verifies and creates an organization; an invitee who
 * signs up from the invitation mail is verified by it and "Accept and Go" lands in the
 * organization.
 */
describe('first run', () => {
  let server: RunningServer;
  let browser: Browser;
  const pages: Page[] = [];
  const errors: string[][] = [];

  beforeAll(async () => {
    server = await startServer({ ORRERY_SUPPORT_EMAIL: 'help@example.test' });
    browser = await launch();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    removeDataDir(server.dataDir);
  });
  afterEach(async (ctx) => {
    if (ctx.task.result?.state === 'fail' && pages.at(-1))
      await screenshot(pages.at(-1)!, `first-run-failed-${ctx.task.name.slice(0, 40)}`);
  });

  const newPage = async () => {
    const page = await (await browser.newContext()).newPage();
    pages.push(page);
    errors.push(watchErrors(page));
    return page;
  };
  const agreeToTerms = async (page: Page) => {
    await page.getByRole('button', { name: 'I agree' }).waitFor();
    await page.getByLabel('I have read and agree to the Terms of Use').check();
    await page.getByRole('button', { name: 'I agree' }).click();
  };
  const toast = (page: Page, text: string) =>
    page.locator('.mantine-Notification-root').getByText(text).waitFor();
  const signUp = async (page: Page, who: { name: string; username: string; email: string }) => {
    await page.getByRole('heading', { name: 'Create your account' }).waitFor();
    await page.getByLabel('Name', { exact: true }).fill(who.name);
    await page.getByLabel('Username').fill(who.username);
    expect(await page.getByLabel('Email').inputValue()).toMatch(/^$|@/);
    await page.getByLabel('Email').fill(who.email);
    await page.getByLabel('Password').fill('first-run-password');
    await page.getByRole('button', { name: 'Create account' }).click();
  };

  it('lets the fresh system administrator reach Administration with no organization', async () => {
    const page = await newPage();
    await page.goto(server.url);
    await signIn(page, ADMIN.email, ADMIN.password);
    await agreeToTerms(page);
    await page.getByText('You are not a member of any organization yet.').waitFor();
    await screenshot(page, 'first-run-01-admin-onboarding');
    await page.getByRole('link', { name: 'Go to Administration' }).click();
    await page.waitForURL((u) => u.pathname === '/admin/users');
    await page.getByRole('tab', { name: 'Users' }).waitFor();
    // Typed in, too: no detour through onboarding.
    await page.goto(`${server.url}/admin/clusters`);
    await page.getByRole('tab', { name: 'Clusters' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/admin/clusters');
    await screenshot(page, 'first-run-02-admin');
    // What this installation cannot do, as the server found it at start.
    await page.getByRole('tab', { name: 'Host' }).click();
    await page.waitForURL((u) => u.pathname === '/admin/host');
    await page
      .getByRole('heading', { name: 'What this installation cannot do, and how to fix it' })
      .waitFor();
    await screenshot(page, 'first-run-02a-admin-host');
    // Contact support sits in the user menu, addressed to the configured address.
    await page
      .getByRole('button', { name: /Administrator|admin/ })
      .last()
      .click();
    const support = page.getByRole('menuitem', { name: 'Contact support' });
    expect(await support.getAttribute('href')).toMatch(/^mailto:help%40example\.test\?subject=/);
    await screenshot(page, 'first-run-02b-user-menu');
  });

  it('lands the system administrator who creates an organization in it, offering Create project', async () => {
    const page = await newPage();
    await page.goto(server.url);
    await signIn(page, ADMIN.email, ADMIN.password);
    await page.getByText('You are not a member of any organization yet.').waitFor();
    await page.getByRole('link', { name: 'Create organization' }).click();
    await page.getByLabel('Organization name').fill('acme');
    await page.getByRole('button', { name: 'Create', exact: true }).click();
    await page.waitForURL((u) => u.pathname === '/' && u.searchParams.get('org') === 'acme');
    // The organization's empty state, not the onboarding card again.
    await page.getByRole('link', { name: 'Create project' }).waitFor();
    expect(await page.getByText('You are a member of the organization acme.').count()).toBe(0);
    expect(new URL(page.url()).pathname).toBe('/');
    await screenshot(page, 'first-run-02c-admin-created-org');
  });

  it('tells an unverified newcomer before acting, resends, verifies, then creates an organization', async () => {
    const page = await newPage();
    const email = 'grace@example.test';
    await page.goto(server.url);
    await page.getByRole('button', { name: 'Create account' }).click();
    await signUp(page, { name: 'Grace Hopper', username: 'grace', email });
    await agreeToTerms(page);
    await page.getByText('Verify your e-mail address').waitFor();
    expect(await page.getByRole('button', { name: 'Create organization' }).isDisabled()).toBe(true);
    await screenshot(page, 'first-run-03-unverified');
    await page.getByRole('button', { name: 'Resend verification mail' }).click();
    await toast(page, `Verification mail sent to ${email}`);
    // Typed in, Create organization says the same before anything is sent.
    await page.goto(`${server.url}/create-org`);
    await page
      .getByText('Until your address is verified you cannot create an organization.')
      .waitFor();
    expect(await page.getByRole('button', { name: 'Create', exact: true }).isDisabled()).toBe(true);
    await screenshot(page, 'first-run-03b-create-org-unverified');

    await page.goto(linkFromOutbox(server.dataDir, email, '/oidc/verify'));
    await page.getByText('Your e-mail address is verified').waitFor();
    await page.goto(server.url);
    await page.getByText('You are not a member of any organization yet.').waitFor();
    expect(await page.getByText('Verify your e-mail address').count()).toBe(0);
    await page.getByRole('link', { name: 'Create organization' }).click();
    await page.getByLabel('Organization name').fill('compilers');
    await page.getByRole('button', { name: 'Create' }).click();
    await page.waitForURL((u) => u.searchParams.get('org') === 'compilers');
    await page.getByRole('banner').waitFor();

    // Back on /user-onboarding, a member is told where they belong.
    await page.goto(`${server.url}/user-onboarding`);
    await page.getByText('You are a member of the organization compilers.').waitFor();
    await screenshot(page, 'first-run-04-member-onboarding');
  });

  it('verifies an invitee by the invitation link, and Accept and Go lands in the organization', async () => {
    const token = await tokenFor(server);
    const api = async (path: string, body: object) => {
      const res = await fetch(`${server.url}${path}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      expect(res.status, await res.clone().text()).toBeLessThan(300);
    };
    await api('/api/v1/orgs', { name: 'engines' });
    const email = 'ada@example.test';
    await api('/apis/admin/v1/invites', { email, role_name: 'user', org_name: 'engines' });

    const page = await newPage();
    await page.goto(linkFromOutbox(server.dataDir, email, '/invite-signup'));
    await signUp(page, { name: 'Ada Lovelace', username: 'ada', email });
    await agreeToTerms(page);
    await page.getByRole('heading', { name: 'You have been invited to organization' }).waitFor();
    await page.getByText('engines', { exact: true }).waitFor();
    expect(await page.getByText('Verify your e-mail address').count()).toBe(0);
    await screenshot(page, 'first-run-05-invite');
    await page.getByRole('button', { name: 'Accept and Go' }).click();
    await toast(page, 'You have been added to organization engines');
    await page.waitForURL(
      (u) =>
        u.pathname === '/' &&
        u.searchParams.get('org') === 'engines' &&
        u.searchParams.get('cluster') === 'default',
    );
    await page.getByRole('banner').waitFor();
    await screenshot(page, 'first-run-06-accepted');
  });

  it('ran without errors in the pages', () => {
    expect(errors.flat()).toEqual([]);
  });
});
