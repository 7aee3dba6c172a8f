import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { screenshot, settled } from './support/browser.js';
import { ROOT, type RunningServer } from './support/server.js';
import { useJourney } from './support/journey.js';
import { ADMIN, signIn } from './support/session.js';

const CONTEXT = 'org=acme&cluster=default&project=vision';
const PROJECT = 'default/acme/vision';

/**
 * Project tokens in Debian's Chromium against the real server process: a project manager creates
 * a token in Project settings → Tokens and sees it once; the token works on the API; the `orrery
 * tokens` CLI (through the running server's control socket) lists it and makes another; revoking
 * it in the console refuses it at the next request.
 */
describe('project tokens', () => {
  let server: RunningServer;
  let page: Page;
  let errors: string[];
  let token = '';

  useJourney('tokens', (j) => ({ server, page, errors } = j));

  const orrery = (...args: string[]) =>
    execFileSync(process.execPath, ['packages/server/bin/orrery.js', 'tokens', ...args], {
      cwd: ROOT,
      env: { ...process.env, ORRERY_DATA_DIR: server.dataDir },
      encoding: 'utf8',
    });
  const configWith = async (t: string) =>
    (await (
      await fetch(`${server.url}/api/v1/config`, { headers: { authorization: `Bearer ${t}` } })
    ).json()) as { authorized: boolean; projects?: { name: string; role: string }[] };

  it('creates a token in project settings and shows it once', async () => {
    await page.goto(server.url);
    await signIn(page, ADMIN.email, ADMIN.password);
    await page.getByRole('banner').waitFor();
    await page.goto(`${server.url}/project-settings/tokens?${CONTEXT}`);
    await page.getByText('No tokens in this project').waitFor();

    await page.getByRole('button', { name: 'Create token' }).click();
    const dialog = page.getByRole('dialog', { name: 'Create token' });
    await dialog.getByLabel('Name').fill('Bad Name');
    await dialog.getByLabel('Name').blur();
    await dialog.getByText('Use 3 to 30 lowercase letters, digits and single hyphens').waitFor();
    await dialog.getByLabel('Name').fill('ci-deploy');
    await dialog.getByRole('combobox', { name: 'Role' }).click();
    await page.getByRole('option', { name: 'reader' }).click();
    await dialog.getByRole('combobox', { name: 'Expires in' }).click();
    await page.getByRole('option', { name: '7 days' }).click();
    await dialog.getByRole('button', { name: 'Create token' }).click();
    await dialog.getByText('Copy the token now: it is shown only once.').waitFor();
    token = (await dialog.getByLabel('Your token').innerText()).trim();
    expect(token.split('.')).toHaveLength(3);
    await settled(page);
    await screenshot(page, 'tokens-created');
    await dialog.getByRole('button', { name: 'Close' }).click();
    await page.getByRole('cell', { name: 'ci-deploy', exact: true }).waitFor();
    await page.getByText('active', { exact: true }).waitFor();
    // The list never shows the token again.
    expect(await page.content()).not.toContain(token);
  });

  it('the token acts with its role, and the CLI lists it and creates another', async () => {
    const config = await configWith(token);
    expect(config.authorized).toBe(true);
    expect(config.projects).toEqual([expect.objectContaining({ name: 'vision', role: 'reader' })]);
    expect(orrery('list', '--email', ADMIN.email, '--project', PROJECT)).toMatch(
      /^ci-deploy\treader\tactive\t/,
    );
    const second = orrery(
      'create',
      ...['--email', ADMIN.email, '--project', PROJECT, '--name', 'nightly', '--ttl', '1d'],
    ).trim();
    expect((await configWith(second)).authorized).toBe(true);
    await page.reload();
    await page.getByRole('cell', { name: 'nightly', exact: true }).waitFor();
    await settled(page);
    await screenshot(page, 'tokens-list');
  });

  it('a duplicate name shows the server message; revoking refuses the token at once', async () => {
    await page.getByRole('button', { name: 'Create token' }).click();
    const dialog = page.getByRole('dialog', { name: 'Create token' });
    await dialog.getByLabel('Name').fill('nightly');
    await dialog.getByRole('button', { name: 'Create token' }).click();
    await dialog.getByText('A token with this name already exists in the project').waitFor();
    await dialog.getByRole('button', { name: 'Cancel' }).click();

    await page.getByRole('button', { name: 'Revoke ci-deploy' }).click();
    const confirm = page.getByRole('dialog', { name: 'Revoke token' });
    await confirm.getByText('Revoke token ci-deploy?', { exact: false }).waitFor();
    await confirm.getByRole('button', { name: 'Revoke' }).click();
    await page.getByText('Token ci-deploy is revoked').waitFor();
    await page.getByText('revoked', { exact: true }).waitFor();
    expect((await configWith(token)).authorized).toBe(false);
    expect(
      orrery('revoke', '--email', ADMIN.email, '--project', PROJECT, '--name', 'nightly'),
    ).toBe('Token nightly is revoked\n');
    expect(errors).toEqual([]);
  });
});
