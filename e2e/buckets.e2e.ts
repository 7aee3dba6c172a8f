import { afterAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { startS3rver, type TestS3 } from '../packages/server/src/test/s3rver.js';
import { screenshot, settled } from './support/browser.js';
import type { RunningServer } from './support/server.js';
import { useJourney } from './support/journey.js';
import { ADMIN, signIn } from './support/session.js';

const CONTEXT = 'org=acme&cluster=default&project=vision';

/**
 * Buckets in Debian's Chromium against the real server process, its buckets on Orrery's own
 * embedded S3 endpoint (the default) and on an s3rver the test starts on loopback: create a
 * bucket and credentials, open the bucket with a double click, add a folder, upload into it, see
 * what an S3 client put with the credentials, download, and delete.
 */
describe.each(['embedded', 's3rver'])('bucket object browser (%s)', (store) => {
  let s3: TestS3 | undefined;
  let server: RunningServer;
  let page: Page;
  let token: string;
  let errors: string[];
  /** The keys the console showed once, after creating the credentials. */
  let keys: Record<string, string>;

  useJourney(`buckets-${store}`, (j) => ({ server, page, token, errors } = j), {
    env: async () => {
      if (store === 'embedded') return {};
      s3 = await startS3rver();
      // Credentials carry the endpoint's keys: allowed for this single-tenant test deployment.
      return { ...s3.env, ORRERY_S3_SHARE_KEYS: 'true' };
    },
  });
  afterAll(() => s3?.stop());

  it('signs in and creates a bucket with credentials', async () => {
    await page.goto(server.url);
    await signIn(page, ADMIN.email, ADMIN.password);
    await page.getByRole('banner').waitFor();
    await page.goto(`${server.url}/buckets?${CONTEXT}`);
    await page.getByText('No buckets found').waitFor();

    await page.getByRole('button', { name: 'Create bucket' }).click();
    const create = page.getByRole('dialog', { name: 'Create bucket' });
    await create.getByLabel('Name').fill('training');
    await create.getByRole('button', { name: 'Create' }).click();
    await page.getByText('Bucket training was created').waitFor();

    await page.getByRole('button', { name: 'Bucket training' }).click();
    const drawer = page.getByRole('dialog', { name: 'training' });
    await drawer.getByRole('button', { name: 'Create credentials' }).click();
    const credentials = page.getByRole('dialog', { name: 'Create credentials' });
    await credentials.getByLabel('Name').fill('laptop');
    await credentials.getByText('Read-write', { exact: true }).click();
    await credentials.getByRole('button', { name: 'Create' }).click();
    await page.getByText('Bucket credentials laptop was created').waitFor();
    const shown = credentials.getByRole('group', { name: 'Keys for bucket training' });
    await shown.waitFor();
    await credentials.getByText(/shown only once/).waitFor();
    keys = {};
    for (const [key, label] of [
      ['endpoint_url', 'Endpoint URL'],
      ['bucket_name', 'Bucket name'],
      ['region_name', 'Region'],
      ['access_key_id', 'Access key ID'],
      ['secret_access_key', 'Secret access key'],
    ]) {
      keys[key] = await shown.getByLabel(label, { exact: true }).inputValue();
    }
    await settled(page);
    await screenshot(page, `buckets-${store}-credentials-once`);
    await credentials.getByRole('button', { name: 'Done' }).click();
    await credentials.waitFor({ state: 'hidden' });
    await drawer.getByText('laptop').waitFor();
    await page.keyboard.press('Escape');
    await drawer.waitFor({ state: 'hidden' });
  });

  it('opens the bucket with a double click, adds a folder and uploads into it', async () => {
    await page.getByRole('button', { name: 'Bucket training' }).dblclick();
    await page.waitForURL((u) => /^\/buckets\/bucket-[0-9a-f-]+\/training$/.test(u.pathname));
    await page.getByText('This bucket is empty').waitFor();

    await page.getByRole('button', { name: 'Add folder' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add folder' });
    await dialog.getByLabel('Folder name').fill('images');
    await dialog.getByRole('button', { name: 'Add' }).click();
    await page.getByText('Folder images was created').waitFor();

    await page.getByRole('button', { name: 'Folder images' }).dblclick();
    await page.waitForURL((u) => u.searchParams.get('path') === 'images');
    await page.getByText('This folder is empty').waitFor();
    await page.locator('input[type=file]').setInputFiles({
      name: 'notes.txt',
      mimeType: 'text/plain',
      buffer: Buffer.from('hello from the bucket\n'),
    });
    await page.getByRole('region', { name: 'Uploads' }).getByText('Uploaded').waitFor();
    await page.getByRole('button', { name: 'File notes.txt' }).waitFor();
    await settled(page);
    await screenshot(page, `buckets-${store}-folder`);
  });

  it('shows what an S3 client put with the keys the console showed', async () => {
    // The list shows where the bucket is, never the keys.
    const r = await fetch(
      `${server.url}/api/v1/buckets/persistent_credentials?org_name=acme&project_name=vision`,
      { headers: { authorization: `Bearer ${token}` } },
    );
    const listed = JSON.stringify(await r.json());
    expect(listed).toContain(keys.bucket_name);
    expect(listed).not.toContain(keys.secret_access_key);
    const c = keys;
    const client = new S3Client({
      endpoint: c.endpoint_url,
      region: c.region_name,
      forcePathStyle: true,
      credentials: { accessKeyId: c.access_key_id, secretAccessKey: c.secret_access_key },
    });
    await client.send(
      new PutObjectCommand({ Bucket: c.bucket_name, Key: 'images/from-sdk.csv', Body: 'a,b\n' }),
    );
    await page.reload();
    await page.getByRole('button', { name: 'File from-sdk.csv' }).waitFor();
  });

  it('shows the file’s details and downloads its bytes', async () => {
    await page.getByRole('button', { name: 'File notes.txt' }).click();
    const bar = page.getByRole('toolbar', { name: 'Selected item' });
    const href = await bar.getByRole('link', { name: 'Download' }).getAttribute('href');
    const body = await page.evaluate(async (url) => (await fetch(url!)).text(), href);
    expect(body).toBe('hello from the bucket\n');
    await page.getByText('training/images/').waitFor();
    await page.getByText('hello from the bucket').waitFor();
    await settled(page);
    await screenshot(page, `buckets-${store}-file-details`);
  });

  it('deletes the file after confirmation', async () => {
    await page
      .getByRole('toolbar', { name: 'Selected item' })
      .getByRole('button', { name: 'Delete' })
      .click();
    const dialog = page.getByRole('dialog', { name: 'Delete' });
    await dialog.getByText('File notes.txt will be deleted').waitFor();
    await dialog.getByRole('button', { name: 'Delete' }).click();
    await page.getByText('notes.txt was deleted').waitFor();
    await page.getByRole('button', { name: 'File notes.txt' }).waitFor({ state: 'hidden' });
    await page.getByRole('button', { name: 'File from-sdk.csv' }).waitFor();
    await page.getByRole('button', { name: 'Go to the parent folder' }).click();
    await page.getByRole('button', { name: 'Folder images' }).waitFor();
  });

  it('ran without errors in the page', () => {
    expect(errors).toEqual([]);
  });
});
