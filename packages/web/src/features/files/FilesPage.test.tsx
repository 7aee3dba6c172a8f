import { act, fireEvent, screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { stubFetch, type CannedResponse } from '../../test/fetch';
import { expectWhyNot } from '../../test/permissions';
import { findEnabled } from '../../test/world-permissions';
import { renderSignedIn } from '../../test/render';
import FilesPage from './FilesPage';
import {
  entry,
  folderStatus,
  LIST,
  listing,
  ROUTE,
  signedIn,
  STATUS,
  storagePermissions,
  url,
} from './test-fixtures';

const ROOT = listing(
  entry('data', 'DIRECTORY'),
  entry('notes.txt'),
  entry('image.png'),
  entry('locked.txt', 'FILE', 'read'),
);

const READ_ONLY = 'You have read access here; this needs write access';

function renderPage(extra: CannedResponse[] = [], permission: 'read' | 'manage' = 'manage') {
  const fetch = stubFetch([
    storagePermissions(permission),
    { url: LIST(), body: ROOT },
    { url: STATUS(), body: folderStatus('/acme/vision', permission) },
    { url: LIST('data'), body: listing(entry('train.csv')) },
    { url: STATUS('data'), body: folderStatus('/acme/vision/data') },
    ...extra,
  ]);
  return { ...fetch, ...renderSignedIn(<FilesPage />, { ...signedIn(), route: ROUTE }) };
}

const tile = (name: string) => screen.findByRole('button', { name: new RegExp(` ${name}$`) });

async function selectFile(name: string) {
  fireEvent.click(await tile(name));
  return screen.findByRole('toolbar', { name: 'Selected item' });
}

describe('Files page', () => {
  it('lists the folder, folders first, and filters by the search after 400 ms', async () => {
    renderPage();
    const names = (await screen.findAllByRole('button', { name: /^(Folder|File) / })).map((b) =>
      b.getAttribute('aria-label'),
    );
    expect(names).toEqual(['Folder data', 'File image.png', 'File locked.txt', 'File notes.txt']);
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    fireEvent.change(screen.getByRole('textbox', { name: 'Search' }), {
      target: { value: 'NOTE' },
    });
    act(() => void vi.advanceTimersByTime(399));
    expect(screen.queryByRole('button', { name: 'File image.png' })).not.toBeNull();
    act(() => void vi.advanceTimersByTime(1));
    expect(screen.queryByRole('button', { name: 'File image.png' })).toBeNull();
    expect(screen.getByRole('button', { name: 'File notes.txt' })).toBeTruthy();
    fireEvent.change(screen.getByRole('textbox', { name: 'Search' }), { target: { value: 'zz' } });
    act(() => void vi.advanceTimersByTime(400));
    expect(screen.getByText('No files or folders match "zz"')).toBeTruthy();
  });

  it('shows the empty folder state', async () => {
    stubFetch([
      { url: LIST(), body: listing() },
      { url: STATUS(), body: folderStatus('/acme/vision') },
    ]);
    renderSignedIn(<FilesPage />, { ...signedIn(), route: ROUTE });
    expect(await screen.findByText('This folder is empty')).toBeTruthy();
  });

  it('shows the server’s message when the listing fails', async () => {
    stubFetch([
      { url: LIST(), status: 404, body: { error: 'not_found', message: 'No such project' } },
      { url: STATUS(), status: 404, body: { error: 'not_found', message: 'No such project' } },
    ]);
    renderSignedIn(<FilesPage />, { ...signedIn(), route: ROUTE });
    expect(await screen.findByText('No such project')).toBeTruthy();
  });

  it('selects on one click after 200 ms and opens a folder on a double click', async () => {
    const { url: location } = renderPage();
    const data = await tile('data');
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    fireEvent.click(data);
    act(() => void vi.advanceTimersByTime(199));
    expect(screen.queryByRole('toolbar', { name: 'Selected item' })).toBeNull();
    act(() => void vi.advanceTimersByTime(1));
    expect(screen.getByRole('toolbar', { name: 'Selected item' })).toBeTruthy();
    expect(within(screen.getByRole('dialog')).getByText('storage:')).toBeTruthy();
    expect(location()).toBe(ROUTE);

    fireEvent.click(data);
    act(() => void vi.advanceTimersByTime(150));
    fireEvent.click(data);
    act(() => void vi.advanceTimersByTime(500));
    vi.useRealTimers();
    expect(location()).toBe(`${ROUTE}&path=data`);
    expect(await tile('train.csv')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Go to the parent folder' }));
    expect(await tile('notes.txt')).toBeTruthy();
    expect(location()).toBe(ROUTE);
  });

  it('makes the area read-only when the folder’s permission is read', async () => {
    renderPage([], 'read');
    await tile('notes.txt');
    await expectWhyNot('Add folder', READ_ONLY);
    await expectWhyNot('Upload', READ_ONLY);
  });

  it('previews a text file and links it with the token', async () => {
    renderPage([{ url: url('notes.txt', 'op=OPEN&token=token-alice'), body: 'hello world' }]);
    const bar = await selectFile('notes.txt');
    const drawer = screen.getByRole('dialog');
    expect(await within(drawer).findByText('"hello world"')).toBeTruthy();
    expect(within(drawer).getByText('.txt')).toBeTruthy();
    expect(within(drawer).getByText('1.2 KB')).toBeTruthy();
    expect(within(bar).getByRole('link', { name: 'Open in new tab' }).getAttribute('href')).toBe(
      url('notes.txt', 'op=OPEN&token=token-alice'),
    );
  });

  it('shares with a username of at least one character and says so', async () => {
    const { calls } = renderPage([
      { method: 'POST', url: '/api/v1/users/bob/permissions', status: 201, body: [] },
    ]);
    const bar = await selectFile('notes.txt');
    fireEvent.click(await findEnabled('Share', within(bar)));
    const dialog = await screen.findByRole('dialog', { name: 'Share notes.txt' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Share' }));
    expect(await within(dialog).findByText('Enter a username')).toBeTruthy();
    expect(calls.some((c) => c.url.endsWith('/users/bob/permissions'))).toBe(false);
    fireEvent.change(within(dialog).getByLabelText(/^Username/), { target: { value: ' bob ' } });
    fireEvent.click(within(dialog).getByText('write'));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Share' }));
    expect(await screen.findByText('Granted permission for bob')).toBeTruthy();
    expect(calls.find((c) => c.url.endsWith('/users/bob/permissions'))?.body).toEqual([
      { uri: 'storage://default/acme/vision/notes.txt', action: 'write' },
    ]);
  });

  it('disables changes of an item the user may only read', async () => {
    await (renderPage(), selectFile('locked.txt'));
    await expectWhyNot('Rename', READ_ONLY);
    await expectWhyNot('Delete', READ_ONLY);
    await expectWhyNot('Share', 'You have read access here; this needs manage access');
  });

  it('renames with op=RENAME and an absolute destination', async () => {
    const RENAME = url('notes.txt', 'op=RENAME&destination=%2Facme%2Fvision%2Fplan.txt');
    const { calls } = renderPage([{ method: 'POST', url: RENAME, status: 204 }]);
    const bar = await selectFile('notes.txt');
    fireEvent.click(await findEnabled('Rename', within(bar)));
    const dialog = await screen.findByRole('dialog', { name: 'Rename' });
    const field = within(dialog).getByLabelText(/^New name/);
    expect((field as HTMLInputElement).value).toBe('notes.txt');
    fireEvent.change(field, { target: { value: '' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Rename' }));
    expect(await within(dialog).findByText('Required')).toBeTruthy();
    fireEvent.change(field, { target: { value: 'plan.txt' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Rename' }));
    expect(await screen.findByText('notes.txt was renamed to plan.txt')).toBeTruthy();
    expect(
      calls.filter((c) => c.method === 'POST' && c.url.includes('op=RENAME')).map((c) => c.url),
    ).toEqual([RENAME]);
  });

  it('deletes a folder recursively only after confirmation', async () => {
    const DELETE = url('data', 'op=DELETE&recursive=true');
    const { calls } = renderPage([{ method: 'DELETE', url: DELETE, status: 204 }]);
    const bar = await selectFile('data');
    fireEvent.click(await findEnabled('Delete', within(bar)));
    const dialog = await screen.findByRole('dialog', { name: 'Delete' });
    expect(within(dialog).getByText(/Folder data and everything in it/)).toBeTruthy();
    expect(calls.some((c) => c.method === 'DELETE')).toBe(false);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('data was deleted')).toBeTruthy();
    expect(calls.filter((c) => c.method === 'DELETE').map((c) => c.url)).toEqual([DELETE]);
  });

  it('adds a folder with op=MKDIRS in the open folder', async () => {
    const MKDIRS = url('data/raw', 'op=MKDIRS');
    const { calls } = renderPage([{ method: 'PUT', url: MKDIRS, status: 201 }]);
    fireEvent.click(await tile('data'));
    fireEvent.click(await tile('data'));
    await tile('train.csv');
    fireEvent.click(screen.getByRole('button', { name: 'Add folder' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add folder' });
    fireEvent.change(within(dialog).getByLabelText(/^Folder name/), { target: { value: 'raw' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Add' }));
    expect(await screen.findByText('Folder raw was created')).toBeTruthy();
    expect(calls.filter((c) => c.method === 'PUT').map((c) => c.url)).toEqual([MKDIRS]);
  });
});
