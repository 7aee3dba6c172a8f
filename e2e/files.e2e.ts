import { describe, expect, it } from 'vitest';
import type { JSHandle, Page } from 'playwright-core';
import { screenshot, settled } from './support/browser.js';
import type { RunningServer } from './support/server.js';
import { useJourney } from './support/journey.js';
import { ADMIN, signIn, signUpElsewhere, tokenFor } from './support/session.js';

const CONTEXT = 'org=acme&cluster=default&project=vision';
const BOB = {
  name: 'Bob Builder',
  username: 'bob',
  email: 'bob@example.test',
  password: 'bob-password-1',
};
const NOTES = 'hello from the files page\nsecond line\n';

/** A DataTransfer in the page carrying text files, as the OS hands one to a drop. */
const dataTransfer = (page: Page, files: { name: string; text: string }[]) =>
  page.evaluateHandle((list) => {
    const dt = new DataTransfer();
    for (const f of list) dt.items.add(new File([f.text], f.name, { type: 'text/plain' }));
    return dt;
  }, files);

/** Drags `files` over the drop zone (its overlay shows) and drops them. */
async function dropFiles(page: Page, files: { name: string; text: string }[]) {
  const dt: JSHandle<DataTransfer> = await dataTransfer(page, files);
  const zone = page.getByTestId('file-drop-zone');
  await zone.dispatchEvent('dragenter', { dataTransfer: dt });
  await zone.dispatchEvent('dragover', { dataTransfer: dt });
  await page.getByText('Drop files to upload them to this folder').waitFor();
  await zone.dispatchEvent('drop', { dataTransfer: dt });
  await dt.dispose();
}

/**
 * The Files page in Debian's Chromium against the real server process and the production build:
 * upload by drag and drop, the details drawer with its preview, rename, folders, sharing with
 * another user, deleting, the folder-up tile and the home button.
 */
describe('files page', () => {
  let server: RunningServer;
  let token: string;
  let page: Page;
  let errors: string[];
  const params = () => new URL(page.url()).searchParams;
  const tile = (kind: 'File' | 'Folder', name: string) =>
    page.getByRole('button', { name: `${kind} ${name}`, exact: true });
  const bar = () => page.getByRole('toolbar', { name: 'Selected item' });
  const uploads = () => page.getByRole('region', { name: 'Uploads' });
  /**
   * A file's own entry in the panel, finished: "Uploaded" with a full bar. Each entry clears 3 s
   * after its own upload ends, so every file is watched for at once rather than counted later.
   */
  const uploaded = (name: string) =>
    uploads()
      .locator('.mantine-Group-root')
      .filter({ has: page.getByText(name, { exact: true }) })
      .filter({ hasText: 'Uploaded' })
      .filter({ has: page.locator('[role=progressbar][aria-valuenow="100"]') })
      .first();

  useJourney('files', (j) => ({ server, token, page, errors } = j), {
    prepare: (j) => signUpElsewhere(j.browser, j.server, BOB),
  });

  it('uploads a file dropped onto the folder and lists it when the progress ends', async () => {
    await page.goto(server.url);
    await signIn(page, ADMIN.email, ADMIN.password);
    await page.getByRole('banner').waitFor();
    await page.goto(`${server.url}/files?${CONTEXT}`);
    await page.getByText('This folder is empty').waitFor();
    // Nothing above the project's root: no folder-up tile.
    expect(await page.getByRole('button', { name: 'Go to the parent folder' }).count()).toBe(0);

    await dropFiles(page, [{ name: 'notes.txt', text: NOTES }]);
    await uploaded('notes.txt').waitFor();
    await tile('File', 'notes.txt').waitFor();
    await page.getByText('Drop files to upload them to this folder').waitFor({ state: 'hidden' });
  });

  it('opens the details drawer with a single click: text preview, Saved in, Extension, Modified', async () => {
    await tile('File', 'notes.txt').click();
    const drawer = page.getByRole('dialog', { name: 'notes.txt' });
    await drawer.waitFor();
    await drawer.getByText('hello from the files page').waitFor();
    expect((await drawer.locator('pre').innerText()).trimEnd()).toBe(NOTES.trimEnd());
    await drawer.getByRole('row', { name: 'Saved in storage:' }).waitFor();
    await drawer.getByRole('row', { name: 'Extension .txt' }).waitFor();
    const modified = await drawer.getByRole('row', { name: /^Modified / }).innerText();
    expect(modified).toMatch(/\d/);
    expect(await tile('File', 'notes.txt').getAttribute('aria-pressed')).toBe('true');
    await bar().getByText('notes.txt').waitFor();
    // The drawer leaves the page usable: nothing of the toolbar or the action bar lies under it.
    await settled(page);
    const edge = (await drawer.boundingBox())!.x;
    for (const button of [
      page.getByRole('button', { name: 'Upload' }),
      bar().getByRole('button', { name: 'Delete' }),
    ]) {
      const box = (await button.boundingBox())!;
      expect(box.x + box.width).toBeLessThanOrEqual(edge);
    }
    // Open in new tab is a plain link with the token in the query: it serves the bytes.
    const href = await bar().getByRole('link', { name: 'Open in new tab' }).getAttribute('href');
    expect(href).toMatch(/op=OPEN/);
    expect(await page.evaluate(async (url) => (await fetch(url!)).text(), href)).toBe(NOTES);
    await settled(page);
    await screenshot(page, 'files-details');
  });

  it('renames the file through the action bar', async () => {
    await bar().getByRole('button', { name: 'Rename' }).click();
    const dialog = page.getByRole('dialog', { name: 'Rename' });
    const field = dialog.getByLabel('New name');
    expect(await field.inputValue()).toBe('notes.txt');
    await field.fill('');
    await dialog.getByRole('button', { name: 'Rename' }).click();
    await dialog.getByText('Required').waitFor();
    await field.fill('readme.txt');
    await dialog.getByRole('button', { name: 'Rename' }).click();
    await page.getByText('notes.txt was renamed to readme.txt').waitFor();
    await tile('File', 'readme.txt').waitFor();
    await tile('File', 'notes.txt').waitFor({ state: 'detached' });
    // The selection follows the new name.
    await page.getByRole('dialog', { name: 'readme.txt' }).waitFor();
    await bar().getByText('readme.txt').waitFor();
  });

  it('adds a folder, enters it with a double click and drops two files into it', async () => {
    await bar().getByRole('button', { name: 'Clear selection' }).click();
    await bar().waitFor({ state: 'detached' });
    await page.getByRole('button', { name: 'Add folder' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add folder' });
    await dialog.getByLabel('Folder name').fill('reports');
    await dialog.getByRole('button', { name: 'Add' }).click();
    await page.getByText('Folder reports was created').waitFor();

    await tile('Folder', 'reports').dblclick();
    await page.waitForURL((u) => u.searchParams.get('path') === 'reports');
    await page.getByText('This folder is empty').waitFor();
    expect(params().get('project')).toBe('vision');
    expect(await page.locator('[aria-current=page]').innerText()).toBe('reports');

    await dropFiles(page, [
      { name: 'a.csv', text: 'x,y\n1,2\n' },
      { name: 'b.md', text: '# B\n' },
    ]);
    // One progress bar per file, each finished.
    // The panel lists this folder's uploads only (notes.txt went to the root).
    await Promise.all(['a.csv', 'b.md'].map((name) => uploaded(name).waitFor()));
    expect(await uploads().getByText('notes.txt').count()).toBe(0);
    await tile('File', 'a.csv').waitFor();
    await tile('File', 'b.md').waitFor();
    await settled(page);
    await screenshot(page, 'files-folder');
  });

  it('goes up with the folder-up tile and home with the home button', async () => {
    await page.getByRole('button', { name: 'Go to the parent folder' }).click();
    await page.waitForURL((u) => !u.searchParams.has('path'));
    await tile('Folder', 'reports').waitFor();
    await tile('File', 'readme.txt').waitFor();

    await tile('Folder', 'reports').dblclick();
    await page.waitForURL((u) => u.searchParams.get('path') === 'reports');
    await tile('File', 'a.csv').waitFor();
    await page.getByRole('button', { name: 'Home' }).click();
    await page.waitForURL((u) => !u.searchParams.has('path'));
    await tile('Folder', 'reports').waitFor();
  });

  it('shares the folder with another user for reading', async () => {
    const listing = `${server.url}/api/v1/storage/acme/vision/reports?op=LISTSTATUS`;
    const asBob = { headers: { authorization: `Bearer ${await tokenFor(server, BOB.email)}` } };
    expect((await fetch(listing, asBob)).ok).toBe(false);

    await tile('Folder', 'reports').click();
    await page
      .getByRole('dialog', { name: 'reports' })
      .getByRole('row', { name: 'Type Folder' })
      .waitFor();
    await bar().getByRole('button', { name: 'Share' }).click();
    const dialog = page.getByRole('dialog', { name: 'Share reports' });
    await dialog.getByRole('button', { name: 'Share' }).click();
    await dialog.getByText('Enter a username').waitFor();
    // Read is the default permission.
    expect(await dialog.getByRole('radio', { name: 'read' }).isChecked()).toBe(true);
    await dialog.getByLabel('Username').fill('nobody-here');
    await dialog.getByRole('button', { name: 'Share' }).click();
    await page.getByText('User not found').waitFor();
    await dialog.getByLabel('Username').fill('bob');
    await dialog.getByRole('button', { name: 'Share' }).click();
    await page.getByText('Granted permission for bob').waitFor();
    await dialog.waitFor({ state: 'detached' });

    const shared = await fetch(listing, asBob);
    expect(shared.status).toBe(200);
    const names = JSON.stringify(await shared.json());
    expect(names).toContain('a.csv');
    expect(names).toContain('b.md');
    const write = await fetch(`${server.url}/api/v1/storage/acme/vision/reports/c.txt?op=CREATE`, {
      method: 'PUT',
      headers: { ...asBob.headers, 'content-type': 'application/octet-stream' },
      body: 'no',
    });
    expect(write.status).toBe(403);
  });

  it('deletes a file and a folder after confirmation', async () => {
    await tile('File', 'readme.txt').click();
    await page.getByRole('dialog', { name: 'readme.txt' }).waitFor();
    await bar().getByRole('button', { name: 'Delete' }).click();
    let dialog = page.getByRole('dialog', { name: 'Delete' });
    await dialog.getByText('File readme.txt will be deleted. This cannot be undone.').waitFor();
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'detached' });
    await tile('File', 'readme.txt').waitFor();

    await bar().getByRole('button', { name: 'Delete' }).click();
    dialog = page.getByRole('dialog', { name: 'Delete' });
    await dialog.getByRole('button', { name: 'Delete' }).click();
    await page.getByText('readme.txt was deleted').waitFor();
    await tile('File', 'readme.txt').waitFor({ state: 'detached' });
    await bar().waitFor({ state: 'detached' });

    await tile('Folder', 'reports').click();
    await bar().getByRole('button', { name: 'Delete' }).click();
    dialog = page.getByRole('dialog', { name: 'Delete' });
    await dialog
      .getByText('Folder reports and everything in it will be deleted. This cannot be undone.')
      .waitFor();
    await dialog.getByRole('button', { name: 'Delete' }).click();
    await page.getByText('reports was deleted').waitFor();
    await page.getByText('This folder is empty').waitFor();
    await settled(page);
    await screenshot(page, 'files-empty');
  });

  it('the upload panel lists the uploads of the folder in view and clears finished ones', async () => {
    const mkdir = await fetch(`${server.url}/api/v1/storage/acme/vision/inner?op=MKDIRS`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${token}` },
    });
    expect(mkdir.status).toBeLessThan(300);
    await page.goto(`${server.url}/files?${CONTEXT}`);
    await page.getByRole('button', { name: 'Folder inner', exact: true }).waitFor();
    await page.locator('input[type=file]').setInputFiles({
      name: 'root.txt',
      mimeType: 'text/plain',
      buffer: Buffer.from('at the root\n'),
    });
    const panel = page.getByRole('region', { name: 'Uploads' });
    await panel.getByText('root.txt').waitFor();
    await screenshot(page, 'files-upload-root');
    // Finished, it clears itself: the file is in the listing.
    await panel.waitFor({ state: 'detached', timeout: 60_000 });
    await page.getByRole('button', { name: 'File root.txt', exact: true }).waitFor();

    await page.getByRole('button', { name: 'Folder inner', exact: true }).dblclick();
    await page.waitForURL((u) => u.searchParams.get('path') === 'inner');
    // The inner folder's own view, listed, before the file is set (a change that lands while a
    // folder's first listing loads is api/refresh.test.ts's case).
    await page.getByText('This folder is empty').waitFor();
    await page.locator('input[type=file]').setInputFiles({
      name: 'inner.txt',
      mimeType: 'text/plain',
      buffer: Buffer.from('inside\n'),
    });
    await panel.getByText('inner.txt').waitFor();
    expect(await panel.getByText('root.txt').count()).toBe(0);
    await page.getByRole('button', { name: 'File inner.txt', exact: true }).waitFor();
  });

  it('ran without errors in the page', () => {
    expect(errors).toEqual([]);
  });
});
