import { fireEvent, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { FEATURES } from '../../app/features';
import { instancesPage, renderApps, V1 } from './test-fixtures';

describe('Apps area', () => {
  it('is first in the menu', () => {
    expect(FEATURES[0]).toMatchObject({ key: 'apps', label: 'Apps', path: '/apps' });
  });

  it('has the tabs All Apps, Installed Apps, Legacy Apps and (in development) Dev Schema, keeping the context', async () => {
    const { url } = renderApps('/apps', [{ url: `${V1}/templates`, body: [] }, instancesPage([])]);
    expect(await screen.findByText('No apps found')).toBeTruthy();
    expect(screen.getAllByRole('tab').map((t) => t.textContent)).toEqual([
      'All Apps',
      'Installed Apps',
      'Legacy Apps',
      // Tests run as Vite's dev server does; a production build has no Dev Schema.
      ...(import.meta.env.DEV ? ['Dev Schema'] : []),
    ]);
    fireEvent.click(screen.getByRole('tab', { name: 'Installed Apps' }));
    await vi.waitFor(() =>
      expect(url()).toBe('/apps/installed?org=acme&cluster=default&project=vision'),
    );
    expect(await screen.findByText('No apps installed')).toBeTruthy();
    fireEvent.click(screen.getByRole('tab', { name: 'Legacy Apps' }));
    expect(await screen.findByText('No legacy apps')).toBeTruthy();
    fireEvent.click(screen.getByRole('tab', { name: 'Dev Schema' }));
    await vi.waitFor(() =>
      expect(url()).toBe('/apps/dev-schema?org=acme&cluster=default&project=vision'),
    );
  });
});
