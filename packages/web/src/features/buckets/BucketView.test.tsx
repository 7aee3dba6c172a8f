import { act, fireEvent, screen, within } from '@testing-library/react';
import { Route, Routes } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  Bucket as BucketSchema,
  BucketObjectList,
  type Action,
  type BucketWire,
} from '@orrery/contract';
import { stubFetch, type CannedResponse } from '../../test/fetch';
import { world } from '../../test/fixtures';
import { renderSignedIn } from '../../test/render';
import { FakeXhr } from '../../test/xhr';
import { expectWhyNot, permissionsOf } from '../../test/permissions';
import { worldPermissions } from '../../test/world-permissions';
import BucketsPage from './BucketsPage';

const READ_ONLY = 'You have read access here; this needs write access';
const SCOPE = 'cluster_name=default&org_name=acme&project_name=vision';
const ID = 'bucket-0b8e1f9e-2a33-4c1b-9f5e-6d0c3a7b9e21';
const CONTEXT = 'org=acme&cluster=default&project=vision';
const OBJECTS = '/api/v1/buckets/buckets/datasets/objects';
const folderUrl = (prefix = '', token?: string) =>
  `${OBJECTS}?${SCOPE}&prefix=${encodeURIComponent(prefix)}&delimiter=%2F${
    token ? `&continuation_token=${token}` : ''
  }`;
const objectUrl = (key: string) => `${OBJECTS}/${key}?${SCOPE}`;

const bucket = (over: Partial<BucketWire> = {}) =>
  BucketSchema.parse({
    id: ID,
    name: 'datasets',
    owner: 'alice',
    org_name: 'acme',
    project_name: 'vision',
    cluster_name: 'default',
    provider: 'minio',
    created_at: '2026-01-02T03:04:05.000Z',
    imported: false,
    public: false,
    uri: 'blob://default/acme/vision/datasets',
    ...over,
  });
const page = (
  prefix: string,
  folders: string[],
  keys: string[],
  permission: Action = 'manage',
  next: string | null = null,
) =>
  BucketObjectList.parse({
    prefix,
    folders,
    objects: keys.map((key) => ({ key, size: 12, last_modified: '2026-01-02T03:04:05.000Z' })),
    next_continuation_token: next,
    permission,
  });
const theBucket = (over: Partial<BucketWire> = {}): CannedResponse => ({
  url: `/api/v1/buckets/buckets/${ID}?${SCOPE}`,
  body: bucket(over),
});

const renderBucket = (path = '') => {
  const { user, sessionConfig } = world();
  return renderSignedIn(
    <Routes>
      <Route path="/buckets/*" element={<BucketsPage />} />
    </Routes>,
    {
      user,
      sessionConfig,
      route: `/buckets/${ID}/datasets?${CONTEXT}${path ? `&path=${path}` : ''}`,
    },
  );
};

/** Two clicks inside the 200 ms window. */
const doubleClick = (element: HTMLElement) => {
  vi.useFakeTimers();
  fireEvent.click(element);
  fireEvent.click(element);
  act(() => vi.advanceTimersByTime(300));
  vi.useRealTimers();
};

afterEach(() => {
  vi.useRealTimers();
});

describe('Bucket object browser', () => {
  it('shows folders and files, opens a folder on a double click, goes up and searches', async () => {
    stubFetch([
      worldPermissions(),
      theBucket(),
      { url: folderUrl(), body: page('', ['images/'], ['readme.txt']) },
      { url: folderUrl('images/'), body: page('images/', [], ['images/cat.png']) },
    ]);
    const { url } = renderBucket();
    expect(await screen.findByRole('heading', { name: 'datasets' })).toBeTruthy();
    doubleClick(await screen.findByRole('button', { name: 'Folder images' }));
    expect(url()).toBe(`/buckets/${ID}/datasets?${CONTEXT}&path=images`);
    expect(await screen.findByRole('button', { name: 'File cat.png' })).toBeTruthy();
    expect(screen.getByLabelText('Breadcrumbs').textContent).toBe('datasets/images');

    fireEvent.click(screen.getByRole('button', { name: 'Go to the parent folder' }));
    expect(await screen.findByRole('button', { name: 'File readme.txt' })).toBeTruthy();
    vi.useFakeTimers();
    fireEvent.change(screen.getByLabelText('Search'), { target: { value: 'IMA' } });
    act(() => vi.advanceTimersByTime(400));
    vi.useRealTimers();
    expect(screen.queryByRole('button', { name: 'File readme.txt' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Folder images' })).toBeTruthy();
  });

  it('opens a file’s details with a download link, and deletes it after confirmation', async () => {
    const { calls } = stubFetch([
      worldPermissions(),
      theBucket(),
      { url: folderUrl('images/'), body: page('images/', [], ['images/cat.png']) },
      { method: 'DELETE', url: objectUrl('images/cat.png'), body: { deleted: 1 } },
    ]);
    renderBucket('images');
    fireEvent.click(await screen.findByRole('button', { name: 'File cat.png' }));
    const bar = await screen.findByRole('toolbar', { name: 'Selected item' });
    expect(within(bar).getByRole('link', { name: 'Download' }).getAttribute('href')).toBe(
      `${objectUrl('images/cat.png')}&token=token-alice`,
    );
    expect(within(bar).queryByRole('button', { name: 'Rename' })).toBeNull();
    expect(await screen.findByText('datasets/images/')).toBeTruthy();

    fireEvent.click(within(bar).getByRole('button', { name: 'Delete' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete' });
    expect(within(dialog).getByText('File cat.png will be deleted. This cannot be undone.'));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('cat.png was deleted')).toBeTruthy();
    expect(calls.filter((c) => c.method === 'DELETE').map((c) => c.url)).toEqual([
      objectUrl('images/cat.png'),
    ]);
  });

  it('adds a folder as an empty object whose key ends in a slash', async () => {
    const { calls } = stubFetch([
      worldPermissions(),
      theBucket(),
      { url: folderUrl(), body: page('', [], []) },
      {
        method: 'PUT',
        url: objectUrl('raw%20data/'),
        status: 201,
        body: { key: 'raw data/', size: 0, last_modified: '2026-01-02T03:04:05.000Z' },
      },
    ]);
    renderBucket();
    expect(await screen.findByText('This bucket is empty')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Add folder' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add folder' });
    fireEvent.change(within(dialog).getByLabelText(/Folder name/), {
      target: { value: 'raw data' },
    });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Add' }));
    expect(await screen.findByText('Folder raw data was created')).toBeTruthy();
    expect(calls.some((c) => c.method === 'PUT' && c.url === objectUrl('raw%20data/'))).toBe(true);
  });

  it('is read-only for a reader: no folders, no uploads', async () => {
    stubFetch([
      permissionsOf([{ prefix: 'blob://default/acme/vision', have: 'read' }]),
      theBucket(),
      { url: folderUrl(), body: page('', [], [], 'read') },
    ]);
    renderBucket();
    expect(await screen.findByText('There is nothing in this bucket yet.')).toBeTruthy();
    await expectWhyNot('Add folder', READ_ONLY);
    await expectWhyNot('Upload', READ_ONLY);
  });

  it('uploads dropped files into the open folder, with progress and cancel', async () => {
    FakeXhr.all = [];
    vi.stubGlobal('XMLHttpRequest', FakeXhr);
    const { calls } = stubFetch([
      worldPermissions(),
      theBucket(),
      { url: folderUrl('images/'), body: page('images/', [], ['images/cat.png']) },
    ]);
    renderBucket('images');
    await screen.findByRole('button', { name: 'File cat.png' });
    const files = [new File(['x'.repeat(100)], 'a.txt'), new File(['y'], 'b.png')];
    fireEvent.drop(screen.getByTestId('file-drop-zone'), {
      dataTransfer: { files, types: ['Files'] },
    });
    const [a, b] = FakeXhr.all;
    expect([a.method, a.url, b.url]).toEqual([
      'PUT',
      objectUrl('images/a.txt'),
      objectUrl('images/b.png'),
    ]);
    expect(a.headers.Authorization).toBe('Bearer token-alice');
    act(() => a.upload.onprogress?.({ loaded: 50, total: 100, lengthComputable: true }));
    expect(screen.getByText('50 B / 100 B')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Cancel upload of a.txt' }));
    expect(await screen.findByText('Cancelled')).toBeTruthy();

    const listings = calls.filter((c) => c.url === folderUrl('images/')).length;
    b.status = 201;
    act(() => b.onload?.());
    expect(await screen.findByText('Uploaded')).toBeTruthy();
    await vi.waitFor(() =>
      expect(calls.filter((c) => c.url === folderUrl('images/')).length).toBe(listings + 1),
    );
  });

  it('loads the next page of a large folder when asked', async () => {
    stubFetch([
      worldPermissions(),
      theBucket(),
      { url: folderUrl(), body: page('', [], ['a.txt'], 'manage', 'next-1') },
      { url: folderUrl('', 'next-1'), body: page('', [], ['b.txt']) },
    ]);
    renderBucket();
    await screen.findByRole('button', { name: 'File a.txt' });
    fireEvent.click(screen.getByRole('button', { name: 'Load more' }));
    expect(await screen.findByRole('button', { name: 'File b.txt' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Load more' })).toBeNull();
  });

  it('says a gcp bucket cannot be viewed in the web UI', async () => {
    stubFetch([worldPermissions(), theBucket({ provider: 'gcp', imported: true })]);
    renderBucket();
    expect(
      await screen.findByText('Buckets created with "gcp" cannot be viewed in the web UI'),
    ).toBeTruthy();
  });

  it('shows the server’s message when a provider cannot be browsed', async () => {
    stubFetch([
      worldPermissions(),
      theBucket({ provider: 'azure', imported: true }),
      {
        url: folderUrl(),
        status: 400,
        body: {
          error: 'bad_request',
          message: 'Buckets created with "azure" cannot be viewed in the web UI',
        },
      },
    ]);
    renderBucket();
    expect(
      await screen.findByText('Buckets created with "azure" cannot be viewed in the web UI'),
    ).toBeTruthy();
  });
});
