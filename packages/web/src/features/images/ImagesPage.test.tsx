import { act, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { IMAGES_UNAVAILABLE } from '@orrery/contract';
import { stubFetch } from '../../test/fetch';
import { world } from '../../test/fixtures';
import { renderSignedIn } from '../../test/render';
import ImagesPage from './ImagesPage';
import { DETAILS, details, LIST, list } from './testdata';

const renderPage = () => {
  const { user, sessionConfig } = world();
  return renderSignedIn(<ImagesPage />, {
    user,
    sessionConfig,
    route: '/images?org=acme&cluster=default&project=vision',
  });
};

describe('Images page', () => {
  afterEach(() => vi.useRealTimers());

  it('says "No images found" when the project has none', async () => {
    stubFetch([{ url: LIST, body: list([]) }]);
    renderPage();
    expect(await screen.findByText('No images found')).toBeTruthy();
  });

  it('says images are unavailable without a registry, with no fake data', async () => {
    stubFetch([
      {
        url: LIST,
        body: { available: false, message: IMAGES_UNAVAILABLE, registry_host: 'x', images: [] },
      },
    ]);
    renderPage();
    // Said once, in the server's words, with nothing to search.
    expect(await screen.findAllByText(/Images are unavailable/)).toHaveLength(1);
    expect(screen.getByText(IMAGES_UNAVAILABLE)).toBeTruthy();
    expect(screen.queryByRole('table')).toBeNull();
    expect(screen.queryByRole('textbox', { name: 'Search images' })).toBeNull();
  });

  it('lists images and filters them by search', async () => {
    stubFetch([{ url: LIST, body: list() }]);
    renderPage();
    const row = (await screen.findByText('app')).closest('tr')!;
    expect(within(row).getByText('v2')).toBeTruthy();
    expect(within(row).getByText('orrery.test/acme/vision/app')).toBeTruthy();
    expect(screen.getByText('tools/cli')).toBeTruthy();
    fireEvent.change(screen.getByLabelText('Search images'), { target: { value: 'CLI' } });
    await vi.waitFor(() => expect(screen.queryByText('app')).toBeNull());
    expect(screen.getByText('tools/cli')).toBeTruthy();
    fireEvent.change(screen.getByLabelText('Search images'), { target: { value: 'zzz' } });
    expect(await screen.findByText('No images found')).toBeTruthy();
  });

  it('opens a drawer with tags, image name, created and size, and copies', async () => {
    const writeText = vi.fn(async () => {});
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    stubFetch([
      { url: LIST, body: list() },
      { url: DETAILS, body: details },
    ]);
    renderPage();
    fireEvent.click((await screen.findByText('app')).closest('tr')!);
    const drawer = await screen.findByRole('dialog');
    expect(await within(drawer).findByText('orrery.test/acme/vision/app')).toBeTruthy();
    const v1 = within(drawer).getByText('v1').closest('tr')!;
    expect(within(v1).getByText('1.5 MB')).toBeTruthy();
    expect(within(v1).getByText(/2026/)).toBeTruthy();
    const v2 = within(drawer).getByText('v2').closest('tr')!;
    expect(within(v2).getAllByText('—')).toHaveLength(2);
    await act(async () => {
      fireEvent.click(within(v1).getByRole('button', { name: 'Copy tag v1' }));
    });
    expect(writeText).toHaveBeenLastCalledWith('v1');
    expect(await screen.findByText('Copied to clipboard')).toBeTruthy();
    await act(async () => {
      fireEvent.click(within(v1).getByRole('button', { name: 'Copy image with tag v1' }));
    });
    expect(writeText).toHaveBeenLastCalledWith('orrery.test/acme/vision/app:v1');
  });
});
