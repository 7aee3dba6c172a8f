import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { Route, Routes } from 'react-router';
import { describe, expect, it } from 'vitest';
import { ErrorPage } from '../../app/ErrorBoundary';
import { UserPopover } from '../../app/layout/UserPopover';
import { stubFetch } from '../../test/fetch';
import { camel, world } from '../../test/fixtures';
import { renderSignedIn } from '../../test/render';
import CreateOrgPage from '../orgs/CreateOrgPage';
import InviteScreen from '../invites/InviteScreen';
import OnboardingRoutes from './OnboardingRoutes';
import UserOnboardingPage from './UserOnboardingPage';

const RESEND = '/api/v1/users/alice/verification-mail';
const disabled = (name: string) =>
  screen.getByRole('button', { name }).hasAttribute('disabled') ||
  screen.getByRole('button', { name }).getAttribute('data-disabled') === 'true';

describe('first run: an unverified user is told before acting', () => {
  it('shows the notice on onboarding, keeps Create organization disabled, and resends', async () => {
    const { calls } = stubFetch([{ method: 'POST', url: RESEND, status: 204 }]);
    renderSignedIn(<UserOnboardingPage />, {
      user: camel.user({ email_verified: false }),
      withContext: false,
    });
    expect(screen.getByText('Verify your e-mail address')).toBeTruthy();
    expect(screen.getByText(/we sent to alice@example.org/)).toBeTruthy();
    expect(disabled('Create organization')).toBe(true);
    fireEvent.click(screen.getByRole('button', { name: 'Resend verification mail' }));
    expect(await screen.findByText('Verification mail sent to alice@example.org')).toBeTruthy();
    expect(calls.filter((c) => c.method === 'POST' && c.url === RESEND)).toHaveLength(1);
  });

  it('shows the server’s message when a resend is refused', async () => {
    const tooSoon =
      'A verification mail was sent less than a minute ago. Please wait before asking again.';
    stubFetch([
      {
        method: 'POST',
        url: RESEND,
        status: 429,
        body: { error: 'rate_limited', message: tooSoon },
      },
    ]);
    renderSignedIn(<CreateOrgPage />, {
      user: camel.user({ email_verified: false }),
      withContext: false,
    });
    expect(disabled('Create')).toBe(true);
    fireEvent.click(screen.getByRole('button', { name: 'Resend verification mail' }));
    expect(await screen.findByText(tooSoon)).toBeTruthy();
  });

  it('disables Accept and Go on the invitation until the address is verified', async () => {
    stubFetch([
      {
        url: '/apis/admin/v1/invites/7',
        body: {
          id: '7',
          invite_id: '7',
          organization_name: 'north',
          email: 'alice@example.org',
          role: 'user',
          status: 'pending',
          expired_at: '2026-12-01T10:00:00.000Z',
          created_at: '2026-11-24T10:00:00.000Z',
        },
      },
    ]);
    renderSignedIn(
      <Routes>
        <Route path="/invites/:id" element={<InviteScreen />} />
      </Routes>,
      { user: camel.user({ email_verified: false }), withContext: false, route: '/invites/7' },
    );
    expect(await screen.findByText('north')).toBeTruthy();
    expect(screen.getByText(/cannot accept this invitation/)).toBeTruthy();
    expect(disabled('Accept and Go')).toBe(true);
  });

  it('shows nothing of it to a verified user', () => {
    stubFetch([]);
    renderSignedIn(<UserOnboardingPage />, { user: camel.user(), withContext: false });
    expect(screen.queryByText('Verify your e-mail address')).toBeNull();
    expect(screen.getByRole('link', { name: 'Create organization' })).toBeTruthy();
  });
});

describe('first run: /user-onboarding says the right thing', () => {
  it('tells a member which organizations they belong to and leads to the console', () => {
    stubFetch([]);
    const { user, sessionConfig } = world();
    renderSignedIn(<UserOnboardingPage />, { user, sessionConfig, withContext: false });
    expect(screen.getByText('You are a member of the organizations acme, beta.')).toBeTruthy();
    expect(screen.queryByText('You are not a member of any organization yet.')).toBeNull();
    expect(screen.getByRole('link', { name: 'Go to the console' }).getAttribute('href')).toBe(
      '/?org=acme',
    );
    expect(screen.getByRole('link', { name: 'Create another organization' })).toBeTruthy();
  });

  it('leads the system administrator of a fresh install to Administration', () => {
    stubFetch([]);
    renderSignedIn(<UserOnboardingPage />, {
      user: camel.user({ system_role: 'admin' }),
      withContext: false,
    });
    expect(screen.getByText('You are not a member of any organization yet.')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Go to Administration' }).getAttribute('href')).toBe(
      '/admin/users',
    );
  });
});

describe('first run: contact support', () => {
  const openMenu = async (supportEmail: string | null) => {
    const { user, sessionConfig } = world();
    stubFetch([]);
    renderSignedIn(<UserPopover />, {
      user,
      sessionConfig,
      config: camel.config({ support_email: supportEmail }),
      route: '/?org=acme',
    });
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Alice Smith' })));
  };

  it('offers a support mail in the user menu, addressed to the configured address', async () => {
    await openMenu('help@example.org');
    const href = screen.getByRole('menuitem', { name: 'Contact support' }).getAttribute('href');
    expect(href).toMatch(/^mailto:help%40example\.org\?subject=/);
    expect(decodeURIComponent(href!)).toContain('Organization: acme');
  });

  it('offers no mail without a recipient', async () => {
    await openMenu(null);
    expect(screen.queryByRole('menuitem', { name: 'Contact support' })).toBeNull();
  });

  it('names the support address on the error page, and no mailto without one', async () => {
    stubFetch([]);
    const { unmount } = renderSignedIn(<ErrorPage />, {
      config: camel.config({ support_email: 'help@example.org' }),
      withContext: false,
    });
    expect(screen.getByText('Something went wrong')).toBeTruthy();
    const link = screen.getByRole('link', { name: 'help@example.org' });
    expect(link.getAttribute('href')).toMatch(/^mailto:help%40example\.org\?/);
    expect(screen.getByText(/Please contact support by e-mail/)).toBeTruthy();
    unmount();

    renderSignedIn(<ErrorPage />, {
      config: camel.config({ support_email: null }),
      withContext: false,
    });
    await waitFor(() => expect(screen.getByText('Something went wrong')).toBeTruthy());
    expect(document.querySelector('a[href^="mailto:"]')).toBeNull();
  });
});

describe('a user without an organization', () => {
  it('opens a job shared with them from its address, not onboarding', async () => {
    const key = 'dashboard--vision--acme';
    const there = `${window.location.origin}/#shared-job`;
    const { calls } = stubFetch([
      { method: 'POST', url: `/api/v1/jobs/${key}/ingress-ticket`, body: { url: there } },
    ]);
    renderSignedIn(<OnboardingRoutes />, { withContext: false, route: `/open-job?key=${key}` });
    expect(await screen.findByText(`Opening ${key}…`)).toBeTruthy();
    await waitFor(() => expect(window.location.href).toBe(there));
    expect(calls.filter((c) => c.method === 'POST')).toHaveLength(1);
    window.location.hash = '';
  });
});
