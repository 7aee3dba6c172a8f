import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { screenshot, watchErrors } from './support/browser.js';
import { useJourney, type Journey } from './support/journey.js';
import { ORG_USER, READER, seedRolesWorld } from './support/roles-world.js';
import { signIn, type NewAccount } from './support/session.js';
import { walkArea, walkMenu, watchForbidden, type Findings } from './support/walk.js';

const CONTEXT = 'org=acme&cluster=default&project=vision';

const report = (f: Findings) => JSON.stringify(f, null, 1);

/** Every area of the console, with the job's page and its tabs. */
const areas = (jobId: string) => [
  '/',
  '/jobs',
  `/jobs/${jobId}`,
  '/jobs/new',
  '/apps',
  '/flows',
  '/files',
  '/files?path=reports',
  '/disks',
  '/images',
  '/secrets',
  '/buckets',
  '/project-settings',
  '/org-settings',
  '/cluster-settings',
  '/org-billing',
  '/admin',
];

/**
 * Issue 15's proof, in Debian's Chromium against the real server and the production build: no
 * action in the console answers 403 to a click that the console offered. A project reader and a
 * user of the organization outside the project walk every area; every enabled action is clicked
 * (its dialog sent when it may be), every disabled one must say why, and any 403 fails the walk.
 */
describe('what the console offers, it may do', () => {
  let j: Journey;
  let jobId = '';

  useJourney('roles', (journey) => (j = journey), {
    env: () => ({ ORRERY_RUNTIME: 'process' }),
    context: { viewport: { width: 1400, height: 900 } },
    prepare: async (world) => {
      jobId = await seedRolesWorld(world.browser, world.server, world.token);
    },
  });

  describe.each([
    ['a project reader', READER],
    ['an organization user outside the project', ORG_USER],
  ] as [string, NewAccount][])('as %s', (_who, account) => {
    let context: BrowserContext;
    let page: Page;
    let errors: string[];
    const findings: Findings = { forbidden: [], unexplained: [], clicked: [] };

    beforeAll(async () => {
      context = await j.browser.newContext({
        viewport: { width: 1400, height: 900 },
        permissions: ['clipboard-read', 'clipboard-write'],
      });
      page = await context.newPage();
      errors = watchErrors(page);
      watchForbidden(page, findings);
      await page.goto(`${j.server.url}/?${CONTEXT}`);
      await signIn(page, account.email, account.password);
      await page.getByRole('banner').waitFor();
    });
    afterAll(() => context?.close());

    it('walks every area: no 403, and every disabled action says why', async () => {
      for (const area of areas(jobId)) {
        const url = `${j.server.url}${area}${area.includes('?') ? '&' : '?'}${CONTEXT}`;
        await walkArea(page, url, findings);
      }
      for (const menu of [/^Cluster:/, /^Project:/, new RegExp(account.name)])
        await walkMenu(page, menu, findings);
      await screenshot(page, `roles-${account.username}-last`);
      expect(findings.forbidden, report(findings)).toEqual([]);
      expect(findings.unexplained, report(findings)).toEqual([]);
      expect(errors).toEqual([]);
    });

    it('creates a project from the page the console offers', async () => {
      await page.goto(`${j.server.url}/new-project?${CONTEXT}`);
      const create = page.getByRole('button', { name: 'Create', exact: true });
      await create.waitFor();
      const name = `${account.username}-lab`;
      // The page settles once the server has said whether the name is taken.
      const checked = page.waitForResponse(
        (r) =>
          new URL(r.url()).pathname === '/api/v1/projects/exists' &&
          new URL(r.url()).searchParams.get('name') === name,
      );
      await page.getByLabel('Project name').fill(name);
      expect(((await (await checked).json()) as { exists: boolean }).exists).toBe(false);
      await page.getByLabel('Checking name').waitFor({ state: 'detached' });
      // A user of the organization may create projects in it: the page offers Create, and it works.
      expect(await create.isEnabled()).toBe(true);
      const sent = page.waitForResponse(
        (r) => r.request().method() === 'POST' && new URL(r.url()).pathname === '/api/v1/projects',
      );
      await create.click();
      const res = await sent;
      expect(res.status(), await res.text()).toBe(201);
      await page.waitForURL((u) => u.searchParams.get('project') === name);
      await screenshot(page, `roles-${account.username}-new-project`);
      expect(findings.forbidden, report(findings)).toEqual([]);
      expect(errors).toEqual([]);
    });
  });
});
