import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { stubFetch } from '../../test/fetch';
import { world } from '../../test/fixtures';
import { renderSignedIn } from '../../test/render';
import { HostTab } from './HostTab';

const LIMITS = '/apis/admin/v1/host/limits';
const admin = () => world({ system_role: 'admin' });

describe('Administration > Host', () => {
  it('lists what the installation cannot do, each with its reason and the command to run', async () => {
    stubFetch([
      {
        url: LIMITS,
        body: {
          root: false,
          limits: [
            {
              feature: 'Images: the embedded container registry (docker-registry)',
              reason: 'Not installed: docker-registry (/usr/bin/docker-registry)',
              fix: 'sudo apt-get install -y --no-install-recommends docker-registry, or set ORRERY_REGISTRY_URL to a registry of your own',
            },
          ],
        },
      },
    ]);
    renderSignedIn(<HostTab />, admin());
    expect(
      await screen.findByText('What this installation cannot do, and how to fix it'),
    ).toBeTruthy();
    const row = screen.getByText(/^Images: the embedded container registry/).closest('tr')!;
    expect(within(row).getByText(/^Not installed: docker-registry/)).toBeTruthy();
    expect(
      within(row).getByText(/^sudo apt-get install -y --no-install-recommends docker-registry/),
    ).toBeTruthy();
    expect(screen.getByText(/does not run as root: it installed nothing/)).toBeTruthy();
  });

  it('says so when nothing is missing', async () => {
    stubFetch([{ url: LIMITS, body: { root: true, limits: [] } }]);
    renderSignedIn(<HostTab />, admin());
    expect(
      await screen.findByText('This installation can do everything its embedded defaults offer.'),
    ).toBeTruthy();
    expect(screen.queryByRole('table')).toBeNull();
  });

  it('shows the server’s message when the list cannot be read', async () => {
    stubFetch([
      {
        url: LIMITS,
        status: 403,
        body: { error: 'forbidden', message: 'Only a system administrator may see this' },
      },
    ]);
    renderSignedIn(<HostTab />, admin());
    expect(await screen.findByText('Only a system administrator may see this')).toBeTruthy();
  });
});
