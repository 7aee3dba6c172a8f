import { act, fireEvent, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { stubFetch } from '../../test/fetch';
import { FakeXhr } from '../../test/xhr';
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

const file = (name: string, size: number, type = 'text/plain') =>
  new File(['x'.repeat(size)], name, { type });

describe('Files uploads', () => {
  it('uploads dropped files with a progress bar each, cancels one, refreshes after the other', async () => {
    FakeXhr.all = [];
    vi.stubGlobal('XMLHttpRequest', FakeXhr);
    const { calls } = stubFetch([
      storagePermissions(),
      { url: LIST(), body: listing(entry('notes.txt')) },
      { url: STATUS(), body: folderStatus('/acme/vision', 'write') },
    ]);
    renderSignedIn(<FilesPage />, { ...signedIn(), route: ROUTE });
    await screen.findByRole('button', { name: 'File notes.txt' });
    const zone = screen.getByTestId('file-drop-zone');
    await vi.waitFor(() =>
      expect(screen.getByRole('button', { name: 'Upload' }).hasAttribute('disabled')).toBe(false),
    );
    const files = [file('a.txt', 100), file('b.bin', 2000, '')];
    fireEvent.drop(zone, { dataTransfer: { files, types: ['Files'] } });

    expect(FakeXhr.all).toHaveLength(2);
    const [a, b] = FakeXhr.all;
    expect(a.method).toBe('PUT');
    expect(a.url).toBe(url('a.txt', 'op=CREATE'));
    expect(a.headers).toMatchObject({
      Authorization: 'Bearer token-alice',
      'X-Requested-With': 'orrery-console',
      'Content-Type': 'text/plain',
    });
    expect(b.headers['Content-Type']).toBe('application/octet-stream');
    expect(a.body).toBe(files[0]);

    act(() => a.upload.onprogress?.({ loaded: 50, total: 100, lengthComputable: true }));
    expect(screen.getByText('50 B / 100 B')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Cancel upload of a.txt' }));
    expect(await screen.findByText('Cancelled')).toBeTruthy();

    const listings = calls.filter((c) => c.url === LIST()).length;
    act(() => b.upload.onprogress?.({ loaded: 2000, total: 2000, lengthComputable: true }));
    b.status = 201;
    act(() => b.onload?.());
    expect(await screen.findByText('Uploaded')).toBeTruthy();
    await vi.waitFor(() => expect(calls.filter((c) => c.url === LIST()).length).toBe(listings + 1));
    // Finished and cancelled uploads clear themselves: their files are in the listing by then.
    await vi.waitFor(() => {
      expect(screen.queryByText('b.bin')).toBeNull();
      expect(screen.queryByText('a.txt')).toBeNull();
    });
  });

  it('shows the server’s message when an upload fails, and uploads from the file picker', async () => {
    FakeXhr.all = [];
    vi.stubGlobal('XMLHttpRequest', FakeXhr);
    stubFetch([
      { url: LIST(), body: listing() },
      { url: STATUS(), body: folderStatus('/acme/vision', 'manage') },
    ]);
    const { container } = renderSignedIn(<FilesPage />, { ...signedIn(), route: ROUTE });
    await screen.findByText('This folder is empty');
    const input = container.querySelector('input[type=file]')!;
    fireEvent.change(input, { target: { files: [file('c.txt', 10)] } });
    const [c] = FakeXhr.all;
    c.status = 403;
    c.responseText = JSON.stringify({ error: 'forbidden', message: 'Not allowed here' });
    act(() => c.onload?.());
    expect(await screen.findByText('Not allowed here')).toBeTruthy();
    // A failed upload stays until dismissed.
    fireEvent.click(screen.getByRole('button', { name: 'Dismiss c.txt' }));
    expect(screen.queryByText('Not allowed here')).toBeNull();
  });
});
