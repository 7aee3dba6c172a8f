import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { screenshot, settled } from './support/browser.js';
import { linkFromOutbox, type RunningServer } from './support/server.js';
import { useJourney } from './support/journey.js';
// The wire reference's minimal batch flow: `first` hands a word to `left` and `right`.
import { THREE as DIAMOND } from '../packages/server/src/modules/flows/batch/test-support.js';
import { send as call, signIn, signUpElsewhere, tokenFor } from './support/session.js';

const CONTEXT = 'org=acme&cluster=default&project=vision';
/**
 * Capitals and `_`: the client tags the flow's jobs `project:demo-flow` (`_id2tag`), and the
 * console's real-time jobs must find them under that tag.
 */
const FLOW = 'Demo_Flow';
/** A writer of the project, not its manager: what a flow needs is write. */
const BOB = {
  name: 'Bob Writer',
  username: 'bob',
  email: 'bob@example.test',
  password: 'bob-password-1',
};

const PLACE = { cluster_name: 'default', org_name: 'acme', project_name: 'vision' };

const LONG = `kind: batch
tasks:
  - id: forever
    image: busybox:latest
    cmd: sleep 600
    cache:
      strategy: none
`;

/**
 * Flows in Debian's Chromium against the real server on the process runtime, as a project writer
 * with no CLI: start a bake of a diamond from pasted YAML, watch its graph turn succeeded, open a
 * task's outputs, then start a long bake and kill it from the bakes list.
 */
describe('flows journey', () => {
  let server: RunningServer;
  let page: Page;
  let errors: string[];

  useJourney('flows', (j) => ({ server, page, errors } = j), {
    env: () => ({ ORRERY_RUNTIME: 'process' }),
    context: { viewport: { width: 1400, height: 900 } },
    prepare: async (j) => {
      await signUpElsewhere(j.browser, j.server, BOB);
      const verify = await j.browser.newPage();
      await verify.goto(linkFromOutbox(j.server.dataDir, BOB.email, '/oidc/verify'));
      await verify.close();
      const send = (method: string, path: string, body: object, as: string) =>
        call(j.server, as, method, path, body);
      await send(
        'PUT',
        '/api/v1/users/bob/profile',
        { terms_accepted: true },
        await tokenFor(j.server, BOB.email),
      );
      await send(
        'POST',
        '/apis/admin/v1/orgs/acme/users',
        { user_name: 'bob', role: 'user' },
        j.token,
      );
      await send(
        'POST',
        '/apis/admin/v1/clusters/default/orgs/acme/projects/vision/users',
        { user_name: 'bob', role: 'writer' },
        j.token,
      );
    },
  });

  const node = (id: string) => page.getByLabel(new RegExp(`^Task ${id}:`));
  /** The graph's zoom: the scale of React Flow's viewport transform. */
  const zoom = () =>
    page
      .locator('.react-flow__viewport')
      .evaluate((el) => new DOMMatrix(getComputedStyle(el).transform).a);
  /** A node's status colour (its thick left border) next to the Mantine colour it should be. */
  const colours = (id: string, mantine: string) =>
    node(id).evaluate((el, name) => {
      const probe = document.createElement('div');
      probe.style.color = `var(--mantine-color-${name}-6)`;
      document.body.append(probe);
      const want = getComputedStyle(probe).color;
      probe.remove();
      return { got: getComputedStyle(el).borderLeftColor, want };
    }, mantine);

  it('shows Flows in the menu and no flows yet', async () => {
    await page.goto(`${server.url}/?${CONTEXT}`);
    await signIn(page, BOB.email, BOB.password);
    await page.getByRole('banner').waitFor();
    await page.getByRole('link', { name: 'Flows' }).click();
    await page.getByText('No flows found').waitFor();
    await screenshot(page, 'flows-empty');
  });

  it('starts a bake of a diamond from pasted YAML, asking for its params', async () => {
    await page.getByRole('button', { name: 'Start bake', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Start bake' });
    await dialog.getByLabel('Flow name').fill(FLOW);
    await dialog.getByLabel('Batch YAML').fill(DIAMOND);
    await screenshot(page, 'flows-start-dialog');
    await dialog.getByRole('button', { name: 'Next' }).click();
    await expect.poll(() => dialog.getByLabel('greeting').inputValue()).toBe('hello');
    await dialog.getByLabel('Bake name').fill('diamond-1');
    await dialog.getByRole('button', { name: 'Start' }).click();
    await page.waitForURL((u) =>
      /^\/flows\/[^/]+\/Demo_Flow\/bakes\/[^/]+\/diamond-1$/.test(u.pathname),
    );
    await page.getByRole('heading', { name: 'Bake diamond-1' }).waitFor();
  });

  it('watches every node of the graph turn succeeded', async () => {
    for (const id of ['first', 'left', 'right'])
      await expect
        .poll(() => node(id).getAttribute('data-status'), { timeout: 60_000, interval: 500 })
        .toBe('succeeded');
    await page.getByText('succeeded', { exact: true }).first().waitFor();
  });

  it('draws nodes of 225 × 84 in the status colours, zooming from 0.01 to 0.75 only', async () => {
    const scale = await zoom();
    const box = (await node('first').boundingBox())!;
    expect(box.width / scale).toBeCloseTo(225, 0);
    expect(box.height / scale).toBeCloseTo(84, 0);
    const green = await colours('first', 'green');
    expect(green.got).toBe(green.want);
    // React Flow disables a zoom button at its limit: click until it does.
    const zoomTo = async (button: string) => {
      const b = page.getByLabel(button);
      for (let i = 0; i < 60 && (await b.isEnabled()); i++) await b.click();
      expect(await b.isEnabled()).toBe(false);
      return zoom();
    };
    expect(await zoomTo('Zoom In')).toBeCloseTo(0.75, 5);
    expect(await zoomTo('Zoom Out')).toBeCloseTo(0.01, 5);
    await page.getByLabel('Fit View').click();
  });

  it('opens a task and reads its outputs', async () => {
    await node('first').click();
    const drawer = page.getByRole('dialog', { name: 'Task first' });
    await drawer.getByText('Status history').waitFor();
    await drawer.getByText('word', { exact: true }).waitFor();
    await drawer.getByText('hello', { exact: true }).waitFor();
    await drawer.getByRole('link', { name: /^job-/ }).waitFor();
    await settled(page);
    await screenshot(page, 'flows-graph-details');
    await page.keyboard.press('Escape');
  });

  it('lists the flow and its bake', async () => {
    await page.goto(`${server.url}/flows?${CONTEXT}`);
    const row = page.getByRole('row').filter({ hasText: FLOW });
    await row.getByText('project:demo-flow').waitFor();
    await screenshot(page, 'flows-list');
    await row.getByRole('link', { name: `View bakes of ${FLOW}` }).click();
    const bake = page.getByRole('row').filter({ hasText: 'diamond-1' });
    await bake.getByText('succeeded').waitFor();
    expect(await bake.getByLabel(/^Kill bake/).count()).toBe(0);
  });

  it('starts a long bake and kills it from the bakes list', async () => {
    await page.getByRole('button', { name: 'Start bake', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Start bake' });
    await dialog.getByLabel('Batch YAML').fill(LONG);
    await dialog.getByRole('button', { name: 'Next' }).click();
    await dialog.getByLabel('Bake name').fill('long-1');
    await dialog.getByRole('button', { name: 'Start' }).click();
    await page.waitForURL((u) => u.pathname.endsWith('/long-1'));
    // The graph follows the bake live: the node turns running with no reload.
    await expect
      .poll(() => node('forever').getAttribute('data-status'), { timeout: 60_000 })
      .toBe('running');
    const running = await colours('forever', 'green');
    expect(running.got).toBe(running.want);

    await page.getByRole('link', { name: FLOW }).click();
    const bake = page.getByRole('row').filter({ hasText: 'long-1' });
    await bake.getByText('running').waitFor();
    await screenshot(page, 'flows-bakes');
    await bake.getByLabel('Kill bake long-1').click();
    await page
      .getByRole('dialog', { name: 'Kill bake' })
      .getByRole('button', { name: 'Kill' })
      .click();
    await page.getByText('Bake killed').waitFor();
    await bake.getByText('cancelled').waitFor({ timeout: 60_000 });
    expect(await bake.getByLabel('Kill bake long-1').count()).toBe(0);

    await bake.getByRole('link', { name: 'long-1' }).click();
    // Cancelled once the engine has killed its job: the graph follows it there.
    await expect
      .poll(() => node('forever').getAttribute('data-status'), { timeout: 60_000 })
      .toBe('cancelled');
    const red = await colours('forever', 'red');
    expect(red.got).toBe(red.want);
  });

  it('shows the flow’s jobs, and only them, as its real-time jobs', async () => {
    // A job of the same project outside the flow, which the flow's list leaves out.
    const res = await fetch(`${server.url}/api/v1/jobs?from_preset`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${await tokenFor(server, BOB.email)}`,
        'content-type': 'application/json',
      },
      body: JSON.stringify({ ...PLACE, image: 'busybox', command: 'true', tags: ['outside'] }),
    });
    expect(res.status, await res.clone().text()).toBe(202);

    await page.goto(`${server.url}/flows?${CONTEXT}`);
    await page.getByRole('link', { name: `View real-time jobs of ${FLOW}` }).click();
    await page.waitForURL((u) => u.pathname === '/jobs' && u.searchParams.get('flowName') === FLOW);
    await page.getByText(`Flow ${FLOW}`).waitFor();
    // The bakes have ended: every status shows them.
    await page.getByText('All', { exact: true }).first().click();
    const rows = page.getByRole('row').filter({ hasText: 'project:demo-flow' });
    for (const task of ['first', 'left', 'right', 'forever'])
      await rows
        .filter({ hasText: `task:${task}` })
        .first()
        .waitFor();
    await settled(page);
    await screenshot(page, 'flows-real-time-jobs');
    expect(await page.getByRole('row').filter({ hasText: 'outside' }).count()).toBe(0);
    expect(await rows.count()).toBe(4);

    // Without the flow the project's other job is there too.
    await page.getByLabel('Show jobs of every flow').click();
    await page.getByRole('row').filter({ hasText: 'outside' }).first().waitFor();
  });

  it('ran without errors in the page', () => {
    expect(errors).toEqual([]);
  });
});
