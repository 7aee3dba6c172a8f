import type { ReactNode } from 'react';
import { act, render } from '@testing-library/react';
import { QueryClient } from '@tanstack/react-query';
import type { User as OidcUser, UserManager } from 'oidc-client-ts';
import { MemoryRouter, useLocation } from 'react-router';
import type { Location } from 'react-router';
import { expect, vi } from 'vitest';
import type { PlatformConfig, User } from '../api/types';
import { PlatformContextProvider } from '../app/context/PlatformContextProvider';
import { Providers } from '../app/Providers';
import { AccountContext, buildAccount } from '../app/session/account';
import type { Session } from '../app/session/session-context';
import { SessionContext } from '../app/session/session-context';
import { camel } from './fixtures';

export interface RenderOptions {
  route?: string;
  user?: User;
  /** Anonymous configuration (branding, support address). */
  config?: PlatformConfig;
  /** Signed-in configuration (clusters, projects). */
  sessionConfig?: PlatformConfig;
  /** Wraps the UI in the org/cluster/project context provider. */
  withContext?: boolean;
}

/** Renders a signed-in piece of the console with real providers and a stubbed identity session. */
export function renderSignedIn(ui: ReactNode, options: RenderOptions = {}) {
  const config = options.config ?? camel.config();
  const user = options.user ?? camel.user();
  const queryClient = new QueryClient({
    defaultOptions: { queries: { retry: false }, mutations: { retry: false } },
  });
  const location: { current: Location | null } = { current: null };
  const session: Session = {
    config,
    userManager: { removeUser: vi.fn(async () => {}) } as unknown as UserManager,
    oidcUser: { access_token: 'token-alice', profile: {} } as unknown as OidcUser,
    username: user.username,
    authError: null,
    setAuthError: vi.fn(),
    signIn: vi.fn(async () => {}),
    signOut: vi.fn(async () => {}),
    refreshToken: vi.fn(async () => true),
  };
  const refresh = vi.fn(async () => {});
  const account = buildAccount(user, options.sessionConfig, refresh);
  function LocationProbe() {
    location.current = useLocation();
    return null;
  }
  const result = render(
    <Providers test queryClient={queryClient}>
      <MemoryRouter initialEntries={[options.route ?? '/']}>
        <SessionContext.Provider value={session}>
          <AccountContext.Provider value={account}>
            {options.withContext === false ? (
              ui
            ) : (
              <PlatformContextProvider>{ui}</PlatformContextProvider>
            )}
            <LocationProbe />
          </AccountContext.Provider>
        </SessionContext.Provider>
      </MemoryRouter>
    </Providers>,
  );
  const url = () => `${location.current?.pathname}${location.current?.search}`;
  return { ...result, session, account, refresh, queryClient, url };
}

/**
 * Every query of the page has its answer and the page has drawn them: what it shows then is what
 * it means to show, so that a test may say what is absent. An answer may enable more queries,
 * hence the loop; the stubbed network answers within a macrotask.
 */
export async function settled(queryClient: QueryClient) {
  do {
    await vi.waitFor(() => expect(queryClient.isFetching()).toBe(0));
    await act(() => new Promise((drawn) => setTimeout(drawn, 0)));
  } while (queryClient.isFetching() > 0);
}
