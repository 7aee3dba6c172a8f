import { screen } from '@testing-library/react';
import { render } from '@testing-library/react';
import { QueryClient } from '@tanstack/react-query';
import { MemoryRouter, useLocation } from 'react-router';
import { describe, expect, it } from 'vitest';
import type { UserWire } from '@orrery/contract';
import { wire, world } from '../../test/fixtures';
import { stubFetch } from '../../test/fetch';
import type { CannedResponse } from '../../test/fetch';
import { Providers } from '../Providers';
import { Gate } from './Gate';
import { SessionProvider } from './SessionProvider';
import { TOKEN_STORAGE } from './oidc';

const CONFIG = wire.config({
  branding: { title: 'Acme ML', logo_url: null, powered_by: 'Orrery' },
});
const PROFILE_URL =
  '/api/v1/users/alice?include=orgs&include=clusters&include=system_role&include=projects';

/** A token as oidc-client-ts keeps it in the page's memory after sign-in. */
function storeToken() {
  const claims = btoa(JSON.stringify({ identity: 'alice', email: 'alice@example.org' }));
  TOKEN_STORAGE.setItem(
    `oidc.user:${CONFIG.issuer}:${CONFIG.client_id}`,
    JSON.stringify({
      access_token: `e30.${claims.replace(/=+$/, '')}.sig`,
      token_type: 'Bearer',
      scope: 'openid profile email offline_access',
      profile: { sub: 'u1', iss: CONFIG.issuer, aud: CONFIG.client_id, exp: 0, iat: 0 },
      expires_at: Math.floor(Date.now() / 1000) + 3600,
    }),
  );
}

function start(responses: CannedResponse[], route = '/') {
  const stub = stubFetch(responses);
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  let path = route;
  function PathProbe() {
    path = useLocation().pathname;
    return null;
  }
  render(
    <MemoryRouter initialEntries={[route]}>
      <PathProbe />
      <Providers test queryClient={queryClient}>
        <SessionProvider>
          <Gate />
        </SessionProvider>
      </Providers>
    </MemoryRouter>,
  );
  return { ...stub, path: () => path };
}

const signedIn = (user: UserWire, config = CONFIG) => [
  { url: '/api/v1/config', body: config },
  { url: PROFILE_URL, body: user },
];

describe('startup', () => {
  it('shows the configuration failure, with no mail lacking a recipient', async () => {
    start([{ url: '/api/v1/config', status: 500, body: { message: 'down' } }]);
    // The configuration is retried once before giving up.
    expect(await screen.findByText('Cannot fetch configuration, contact support')).toBeTruthy();
    // The support address is part of the configuration that failed: a mail would have no
    // recipient, so none is offered.
    expect(screen.queryByText('Contact support')).toBeNull();
    expect(document.querySelector('a[href^="mailto:"]')).toBeNull();
  });

  it('shows the login page with the white-label title when there is no token', async () => {
    start([{ url: '/api/v1/config', body: CONFIG }], '/jobs');
    expect(await screen.findByText('Welcome to Acme ML')).toBeTruthy();
    expect(screen.getByText('Powered by Orrery')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Sign in' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Create account' })).toBeTruthy();
    expect(document.title).toBe('Acme ML');
  });

  it('asks for the Terms of Use before anything else', async () => {
    storeToken();
    const { calls } = start(signedIn(wire.user({ terms_accepted: false })));
    expect(await screen.findByRole('button', { name: 'I agree' })).toBeTruthy();
    const profileCall = calls.find((c) => c.url === PROFILE_URL);
    expect(profileCall?.headers.Authorization).toMatch(/^Bearer e30\./);
  });

  it('sends a user without an organization to onboarding', async () => {
    storeToken();
    const { path } = start(signedIn(wire.user()));
    expect(await screen.findByText('You are not a member of any organization yet.')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Create organization' })).toBeTruthy();
    // At the onboarding's own address, as the administrator's is.
    expect(path()).toBe('/user-onboarding');
  });

  it('welcomes a user without a cluster and points to the administrator or support', async () => {
    storeToken();
    const user = wire.user({
      orgs: [{ name: 'acme', role: 'user', balance: { credits: '5' }, projects_count: 0 }],
    });
    start(signedIn(user));
    expect(
      await screen.findByText(/contact your organization's administrator or support/),
    ).toBeTruthy();
  });

  it('opens the main layout with the empty project state', async () => {
    storeToken();
    const { userWire, configWire } = world({ projects: [] });
    start(signedIn(userWire, { ...configWire, projects: [] }));
    expect(await screen.findByText("You don't have any projects")).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Create project' }).getAttribute('href')).toBe(
      '/new-project?org=acme&cluster=default',
    );
    expect(screen.getByText('1,234.5')).toBeTruthy();
  });

  it('shows an auth error titled from its code', async () => {
    storeToken();
    start(
      [{ url: '/api/v1/config', body: CONFIG }],
      '/?error=access_denied&error_description=The+user+cancelled',
    );
    expect(await screen.findByText('Access denied')).toBeTruthy();
    expect(screen.getByText('The user cancelled')).toBeTruthy();
  });

  it('opens a dialog when the login hint is another address', async () => {
    storeToken();
    const { userWire, configWire } = world();
    start(signedIn(userWire, configWire), '/?login_hint=bob@example.org');
    expect(await screen.findByText(/This link is meant for bob@example.org/)).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Continue as alice@example.org' })).toBeTruthy();
  });
});
