import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { stubFetch } from '../../test/fetch';
import { world } from '../../test/fixtures';
import { renderSignedIn } from '../../test/render';
import { Route, Routes } from 'react-router';
import InvitesPage from './InvitesPage';
import InviteScreen from './InviteScreen';

const INCOMING = '/apis/admin/v1/invites/incoming';
const invite = (id: string, org: string, status: string) => ({
  id,
  invite_id: id,
  organization_name: org,
  email: 'alice@example.test',
  role: 'user',
  status,
  expired_at: '2026-12-01T10:00:00.000Z',
  created_at: '2026-11-24T10:00:00.000Z',
});

describe('invitations page', () => {
  it('says "No pending invites" when there are none', async () => {
    stubFetch([{ url: INCOMING, body: [] }]);
    const { user, sessionConfig } = world();
    renderSignedIn(<InvitesPage />, { user, sessionConfig });
    expect(await screen.findByText('No pending invites')).toBeTruthy();
  });

  it('shows each status by its name and answers only pending ones', async () => {
    const { calls } = stubFetch([
      {
        url: INCOMING,
        body: [
          invite('1', 'north', 'pending'),
          invite('2', 'south', 'accepted'),
          invite('3', 'east', 'expired'),
          invite('4', 'west', 'declined'),
        ],
      },
      {
        method: 'POST',
        url: '/apis/admin/v1/invites/1/decline',
        body: invite('1', 'north', 'declined'),
      },
    ]);
    const { user, sessionConfig } = world();
    renderSignedIn(<InvitesPage />, { user, sessionConfig });
    const row = (org: string) => screen.getByText(org).closest('tr')!;
    await screen.findByText('north');
    expect(within(row('north')).getByText('invited')).toBeTruthy();
    expect(within(row('south')).getByText('accepted')).toBeTruthy();
    expect(within(row('east')).getByText('expired')).toBeTruthy();
    expect(within(row('west')).getByText('declined')).toBeTruthy();
    expect(
      within(row('east')).getByRole('button', { name: 'Accept' }).hasAttribute('disabled'),
    ).toBe(true);
    fireEvent.click(within(row('north')).getByRole('button', { name: 'Decline' }));
    expect(
      await screen.findByText('You declined the invitation to organization north'),
    ).toBeTruthy();
    expect(calls.some((c) => c.method === 'POST' && c.url.endsWith('/1/decline'))).toBe(true);
  });

  it('accepts from the invite screen, reloads the account and selects the first organization', async () => {
    const { calls } = stubFetch([
      { url: '/apis/admin/v1/invites/7', body: invite('7', 'north', 'pending') },
      {
        method: 'POST',
        url: '/apis/admin/v1/invites/7/accept',
        body: invite('7', 'north', 'accepted'),
      },
      {
        url: '/api/v1/orgs',
        body: {
          items: [{ name: 'acme', role: 'manager', balance: { credits: null }, projects_count: 1 }],
          total: 1,
          pages: 1,
        },
      },
    ]);
    const { user, sessionConfig } = world();
    const { refresh, url } = renderSignedIn(
      <Routes>
        <Route path="/invites/:id" element={<InviteScreen />} />
        <Route path="*" element={null} />
      </Routes>,
      { user, sessionConfig, withContext: false, route: '/invites/7' },
    );
    expect(
      await screen.findByRole('heading', { name: 'You have been invited to organization' }),
    ).toBeTruthy();
    expect(await screen.findByText('north')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Accept and Go' }));
    expect(await screen.findByText('You have been added to organization north')).toBeTruthy();
    expect(refresh).toHaveBeenCalled();
    await waitFor(() => expect(url()).toBe('/?org=acme'));
    expect(calls.some((c) => c.method === 'POST' && c.url.endsWith('/7/accept'))).toBe(true);
  });
});
