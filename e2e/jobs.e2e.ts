import { beforeAll, describe, expect, it } from 'vitest';
import type { Page, Request } from 'playwright-core';
import { screenshot, settled } from './support/browser.js';
import type { RunningServer } from './support/server.js';
import { useJourney } from './support/journey.js';
import { ADMIN, signIn } from './support/session.js';
// The registry tests' own client: a tiny image pushed through Orrery's /v2/ as `docker push` does.
import { basicAuth, pushImage } from '../packages/server/src/modules/images/oci-client.js';

const CONTEXT = 'org=acme&cluster=default&project=vision';
/** The job is a tiny HTTP server; the process runtime gives it its port in PORT. */
const SERVE = `${process.execPath} -e "require('http').createServer((q,s)=>s.end('hello from the job')).listen(process.env.PORT,()=>console.log('listening on '+process.env.PORT))"`;

/**
 * Jobs in Debian's Chromium against the real server on the process runtime: create a job from
 * the template's form, watch it run, follow its logs, open its HTTP endpoint, kill it, rerun it;
 * the form's pattern message in words, a job's memory in its preset's unit, Choose Image Tag.
 */
describe('jobs journey', () => {
  let server: RunningServer;
  let token: string;
  let page: Page;
  let errors: string[];
  let firstJob = '';

  useJourney('jobs', (j) => ({ server, token, page, errors } = j), {
    env: () => ({ ORRERY_RUNTIME: 'process' }),
    context: { viewport: { width: 1400, height: 900 } },
  });
  beforeAll(async () => {
    await pushImage(server.url, basicAuth(ADMIN.username, token), 'acme/vision/hello', 'v1');
  });
  /** The requests the page sends from now on that change something (a form's checks stop them). */
  const watchWrites = () => {
    const writes: string[] = [];
    const listener = (r: Request) => {
      if (r.method() !== 'GET' && new URL(r.url()).pathname.startsWith('/api'))
        writes.push(`${r.method()} ${new URL(r.url()).pathname}`);
    };
    page.on('request', listener);
    return { writes, stop: () => page.off('request', listener) };
  };

  it('shows the empty list, then creates a job from the form', async () => {
    await page.goto(server.url);
    await signIn(page, ADMIN.email, ADMIN.password);
    await page.getByRole('banner').waitFor();
    await page.goto(`${server.url}/jobs?${CONTEXT}`);
    await page.getByText('No jobs found').waitFor();

    await page.getByRole('link', { name: 'Create new job' }).click();
    await page.getByRole('heading', { name: 'Create new job' }).waitFor();
    // A required field left empty keeps the form from being sent.
    await page.getByRole('button', { name: 'Create job' }).click();
    await page.getByText('Required').first().waitFor();

    await page.getByLabel('Image').fill('busybox');
    await page.getByLabel('Name', { exact: true }).fill('web-job');
    await page.getByLabel('Command').fill(SERVE);
    await page.getByLabel('HTTP').check();
    await page.getByRole('button', { name: 'Create job' }).click();
    await page.waitForURL((u) => /^\/jobs\/job-[0-9a-f-]+$/.test(u.pathname));
    firstJob = new URL(page.url()).pathname.split('/')[2]!;
    await page.getByRole('heading', { name: 'web-job' }).waitFor();
    // The page refreshes every 10 s; the job is running well before.
    await page.getByText('running', { exact: true }).first().waitFor({ timeout: 60_000 });
    await screenshot(page, 'jobs-details');
  });

  it('follows the logs of the running job', async () => {
    await page.getByRole('tab', { name: 'Logs' }).click();
    await page.getByText(/listening on \d+/).waitFor();
    await screenshot(page, 'jobs-logs');
  });

  it('opens the job’s HTTP endpoint in a new tab, signed in through the console', async () => {
    const open = page.getByRole('button', { name: 'Open', exact: true });
    const [tab] = await Promise.all([page.context().waitForEvent('page'), open.click()]);
    await tab.getByText('hello from the job').waitFor();
    // At the job's own host, the one-time ticket gone from the address bar.
    const at = `http://${firstJob}.jobs.localhost:${new URL(server.url).port}/`;
    expect(tab.url()).toBe(at);
    await tab.close();
    // Without the console's session the endpoint asks for a sign-in.
    const anonymous = await fetch(at);
    expect(anonymous.status).toBe(401);
  });

  it('kills the job after confirmation', async () => {
    await page.getByRole('button', { name: 'Kill', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Kill job' });
    await dialog.getByRole('button', { name: 'Kill' }).click();
    await page.getByText('Job killed').waitFor();
    await page.getByText('cancelled', { exact: true }).first().waitFor();
  });

  it('reruns it as a new job and opens that one', async () => {
    await page.getByRole('button', { name: 'Rerun' }).click();
    await page.getByText('Job web-job rerun').waitFor();
    await page.waitForURL(
      (u) => /^\/jobs\/job-[0-9a-f-]+$/.test(u.pathname) && !u.pathname.endsWith(firstJob),
    );
    await page.getByText('running', { exact: true }).first().waitFor({ timeout: 60_000 });
  });

  it('lists both jobs with the status filter on all', async () => {
    await page.goto(`${server.url}/jobs?${CONTEXT}&status=all`);
    await page
      .getByRole('cell', { name: /web-job/ })
      .first()
      .waitFor();
    expect(await page.getByRole('row').count()).toBe(3); // header and two jobs
    await screenshot(page, 'jobs-list');
  });

  it('an error toast leaves the sticky Create job button in reach', async () => {
    // The organization may run one job, and web-job runs: the server refuses another (not one
    // of its fields), and the form says so in a toast at the bottom right, where the sticky
    // footer's buttons are.
    const quota = (body: object) =>
      fetch(`${server.url}/apis/admin/v1/clusters/default/orgs/acme/quota`, {
        method: 'PATCH',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ quota: body }),
      });
    expect((await quota({ total_running_jobs: 1 })).status).toBe(200);
    try {
      await page.setViewportSize({ width: 1400, height: 600 });
      await page.goto(`${server.url}/jobs/new?${CONTEXT}`);
      await page.getByLabel('Image').fill('busybox');
      await page.getByLabel('Command').fill('sleep 1');
      const create = page.getByRole('button', { name: 'Create job' });
      await create.click();
      const toast = page
        .locator('.mantine-Notification-root')
        .filter({ hasText: 'Jobs quota exhausted' });
      await toast.waitFor();
      await settled(page);
      const [t, b] = [(await toast.boundingBox())!, (await create.boundingBox())!];
      expect(t.y + t.height).toBeLessThanOrEqual(b.y);
      // What takes a click at the button's centre is the button, not a toast or its container.
      const hit = await page.evaluate(
        ([x, y]) => document.elementFromPoint(x!, y!)?.closest('button')?.textContent ?? null,
        [b.x + b.width / 2, b.y + b.height / 2],
      );
      expect(hit).toBe('Create job');
      await screenshot(page, 'jobs-toast-above-footer');
    } finally {
      await page.setViewportSize({ width: 1400, height: 900 });
      expect((await quota({})).status).toBe(200);
    }
  });

  it('a pattern error on the job form is in words, without the required-fields toast', async () => {
    const { writes, stop } = watchWrites();
    await page.goto(`${server.url}/jobs/new?${CONTEXT}`);
    await page.getByLabel(/^Image/).fill('ubuntu:24.04');
    await page.getByLabel(/^Name/).fill('My Job');
    await page.getByRole('button', { name: 'Create job' }).click();
    await page
      .getByText(
        'Value does not match the required pattern: lowercase letters, digits and single hyphens, starting with a letter',
      )
      .waitFor();
    await settled(page);
    expect(await page.getByText('Please fill in all required fields').count()).toBe(0);
    expect(await page.getByText('^[a-z]', { exact: false }).count()).toBe(0);
    await screenshot(page, 'jobs-job-pattern');
    expect(writes.filter((w) => /\/jobs$/.test(w))).toEqual([]);
    stop();
  });

  it('a job’s memory is in its preset’s unit on the job page, the form and admin', async () => {
    const presets = (await (
      await fetch(`${server.url}/api/v1/config`, { headers: { authorization: `Bearer ${token}` } })
    ).json()) as { clusters?: { resource_presets?: { name: string; memory: number }[] }[] };
    const preset = presets.clusters?.[0]?.resource_presets?.[0];
    expect(preset).toBeTruthy();
    const res = await fetch(`${server.url}/api/v1/jobs?from_preset`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        cluster_name: 'default',
        org_name: 'acme',
        project_name: 'vision',
        preset_name: preset!.name,
        name: 'memory-check',
        image: 'busybox:latest',
        command: 'true',
        pass_config: false,
      }),
    });
    expect(res.status).toBe(202);
    const job = (await res.json()) as { id: string };
    await page.goto(`${server.url}/jobs/${job.id}?${CONTEXT}`);
    const gb = preset!.memory / 1e9;
    const shown =
      gb >= 1 ? `${Number(gb.toFixed(2))} GB` : `${Number((preset!.memory / 1e6).toFixed(2))} MB`;
    await page
      .getByText(new RegExp(`CPU, ${shown.replace('.', '\\.')}`))
      .first()
      .waitFor();
    expect(await page.getByText(/GiB|MiB/).count()).toBe(0);
    await settled(page);
    await screenshot(page, 'jobs-job-memory');
    // The Details tab names the name-based URL "HTTP URL by name".
    await page.getByRole('tab', { name: 'Details' }).click();
    const byName = page.getByRole('row', { name: /^HTTP URL by name/ });
    await byName.waitFor();
    const url = (await byName.getByRole('cell').last().innerText()).trim();
    if (url.startsWith('http')) expect(url).toContain('memory-check');

    // The same unit in the job form's preset field and in the administrator's presets.
    await page.goto(`${server.url}/jobs/new?${CONTEXT}`);
    const field = page.getByRole('combobox', { name: /^Preset/ });
    await expect
      .poll(() => field.inputValue(), { timeout: 60_000 })
      .toContain(`${preset!.name} · `);
    expect(await field.inputValue()).toContain(` ${shown} `);
    await page.goto(`${server.url}/admin/clusters/default/resources?${CONTEXT}`);
    const row = page.getByRole('row', { name: new RegExp(`^${preset!.name} `) });
    await row.getByRole('cell', { name: shown, exact: true }).waitFor();
    expect(errors).toEqual([]);
  });

  it('Choose Image Tag confirms with Apply and fills the job form', async () => {
    await page.goto(`${server.url}/jobs/new?${CONTEXT}`);
    await page.getByRole('button', { name: 'Choose image' }).click();
    const images = page.getByRole('dialog', { name: 'Choose Image' });
    await images.getByRole('cell', { name: 'hello' }).click();
    await images.getByRole('button', { name: 'Select' }).click();
    const tags = page.getByRole('dialog', { name: 'Choose Image Tag' });
    await tags.getByRole('cell', { name: 'v1', exact: true }).click();
    await settled(page);
    await screenshot(page, 'jobs-image-tag');
    await tags.getByRole('button', { name: 'Apply', exact: true }).click();
    await tags.waitFor({ state: 'hidden' });
    expect(await page.getByLabel(/^Image/).inputValue()).toContain('hello:v1');
  });

  it('ran without errors in the page', () => {
    expect(errors).toEqual([]);
  });
});
