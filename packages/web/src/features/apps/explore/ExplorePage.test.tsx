import { fireEvent, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { renderApps, templateWire, V1 } from '../test-fixtures';

const versions = {
  url: `${V1}/templates/jupyter`,
  body: [
    {
      version: '2.0.0',
      title: 'Jupyter',
      short_description: 'Notebook',
      tags: [],
      pub_date: '2026-02-01',
      is_latest: true,
    },
    {
      version: '1.0.0',
      title: 'Jupyter',
      short_description: 'Notebook',
      tags: [],
      pub_date: '2026-01-01',
      is_latest: false,
    },
  ],
};
const version = (v: string) => ({
  url: `${V1}/templates/jupyter/${v}`,
  body: templateWire('jupyter', {
    version: v,
    tags: ['Notebook', 'Easy Deploy'],
    description: `## Notebook ${v}\n\nRun **cells** in the browser.\n\n<script>alert(1)</script>`,
    assets: [{ type: 'image', url: 'https://example.org/shot.png' }],
    external_urls: [{ name: 'Jupyter website', type: 'documentation', url: 'https://jupyter.org' }],
  }),
});

describe('Explore an app', () => {
  it('shows the latest version with its markdown description, assets and links', async () => {
    const { calls } = renderApps('/apps/jupyter', [versions, version('2.0.0')]);
    expect(await screen.findByRole('heading', { name: 'Notebook 2.0.0' })).toBeTruthy();
    // The version is read from the list first: no call for an empty version.
    expect(calls.map((c) => c.url).filter((u) => u.includes('/templates/jupyter/'))).toEqual([
      `${V1}/templates/jupyter/2.0.0`,
    ]);
    expect(screen.getByText('cells').tagName).toBe('STRONG');
    expect(document.querySelector('script')).toBeNull();
    expect(screen.getByRole('img', { name: 'Jupyter, picture 1' }).getAttribute('src')).toBe(
      'https://example.org/shot.png',
    );
    expect(screen.getByRole('link', { name: 'Jupyter website' }).getAttribute('href')).toBe(
      'https://jupyter.org',
    );
    expect(screen.getByRole('link', { name: 'Install' }).getAttribute('href')).toMatch(
      /^\/apps\/jupyter\/install\/2\.0\.0\?/,
    );
  });

  it('marks the latest version in the picker and opens another version', async () => {
    const { url } = renderApps('/apps/jupyter', [versions, version('2.0.0'), version('1.0.0')]);
    await screen.findByRole('heading', { name: 'Notebook 2.0.0' });
    fireEvent.click(screen.getByRole('combobox', { name: 'Version' }));
    expect(await screen.findByRole('option', { name: '2.0.0 (Latest)' })).toBeTruthy();
    fireEvent.click(screen.getByRole('option', { name: '1.0.0' }));
    await vi.waitFor(() => expect(url()).toMatch(/^\/apps\/jupyter\/1\.0\.0\?/));
    expect(await screen.findByRole('heading', { name: 'Notebook 1.0.0' })).toBeTruthy();
  });

  it('says so when the version does not exist', async () => {
    renderApps('/apps/jupyter/3.0.0', [
      versions,
      {
        url: `${V1}/templates/jupyter/3.0.0`,
        status: 404,
        body: { error: 'not_found', message: 'x' },
      },
    ]);
    expect(await screen.findByText('App template was not found for this version')).toBeTruthy();
  });
});
