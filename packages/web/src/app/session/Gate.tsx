import { lazy, Suspense, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { notifyManager, useQueryClient } from '@tanstack/react-query';
import { useLocation, useSearchParams } from 'react-router';
import { ApiError } from '../../api/client';
import { useSessionConfig } from '../../api/config';
import { queryKeys } from '../../api/keys';
import { useProfile } from '../../api/users';
import { AccountContext, buildAccount } from './account';
import { decideScreen } from './decide';
import { CALLBACK_PATH } from './oidc';
import { AuthErrorScreen, LoadingScreen } from './screens';
import type { AuthErrorInfo } from './session-context';
import { useSession } from './session-context';
import { usePreloaded } from './preload';

const CallbackPage = lazy(() => import('../../features/auth/CallbackPage'));
const LoginRoutes = lazy(() => import('../../features/auth/LoginRoutes'));
const TermsScreen = lazy(() => import('../../features/terms/TermsScreen'));
const OnboardingRoutes = lazy(() => import('../../features/onboarding/OnboardingRoutes'));
const loadAppRoutes = () => import('../AppRoutes');
const LazyAppRoutes = lazy(loadAppRoutes);

const MISSING_USERNAME: AuthErrorInfo = {
  code: 'invalid_token',
  text: 'The sign-in token carries no user name.',
};

const errorInfo = (error: unknown): AuthErrorInfo =>
  error instanceof ApiError
    ? { code: error.code ?? `http_${error.status}`, text: error.message }
    : { code: 'network_error', text: error instanceof Error ? error.message : String(error) };

export function Gate() {
  const { pathname } = useLocation();
  if (pathname === CALLBACK_PATH) {
    return (
      <Suspense fallback={<LoadingScreen />}>
        <CallbackPage />
      </Suspense>
    );
  }
  return <StartupGate />;
}

function StartupGate() {
  const session = useSession();
  const queryClient = useQueryClient();
  const [params, setParams] = useSearchParams();
  const hasToken = session.oidcUser === undefined ? undefined : !!session.oidcUser;
  const profile = useProfile(session.username);
  const config = useSessionConfig(!!hasToken && !!session.username);
  const PreloadedAppRoutes = usePreloaded(loadAppRoutes, !!hasToken);

  // The identity provider reports errors as `?error=…&error_description=…`.
  const urlError = params.get('error');
  const authError: AuthErrorInfo | null =
    session.authError ??
    (urlError ? { code: urlError, text: params.get('error_description') ?? '' } : null) ??
    (hasToken && !session.username ? MISSING_USERNAME : null) ??
    (profile.isError ? errorInfo(profile.error) : null);

  // Set in the same tick as the caller's navigation, so no render sees the new address with the
  // old account and mistakes a just-created organization or project for an unknown one.
  const [reloading, setReloading] = useState(false);
  const refresh = useCallback(async () => {
    setReloading(true);
    try {
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: queryKeys.user(session.username ?? '') }),
        queryClient.invalidateQueries({ queryKey: queryKeys.sessionConfig }),
      ]);
    } finally {
      // Queued behind the queries' own notifications, i.e. after React has the new data.
      notifyManager.schedule(() => setReloading(false));
    }
  }, [queryClient, session.username]);

  const refreshing = reloading || profile.isFetching || config.isFetching;
  const account = useMemo(
    () => (profile.data ? buildAccount(profile.data, config.data, refresh, refreshing) : null),
    [profile.data, config.data, refresh, refreshing],
  );

  // An unverified user who already accepted the terms may have verified in another tab: a fresh
  // token (and profile) picks that up.
  const user = profile.data;
  const renewedFor = useRef<string | null>(null);
  useEffect(() => {
    if (!user || user.emailVerified || !user.termsAccepted) return;
    if (renewedFor.current === user.username) return;
    renewedFor.current = user.username;
    session.refreshToken().then((ok) => {
      if (ok) void refresh();
    });
  }, [user, session, refresh]);

  // One automatic refresh per page load: a token the server keeps rejecting must not loop.
  const autoRefreshed = useRef(false);
  const recover = useCallback(() => {
    session.setAuthError(null);
    if (urlError) {
      setParams(
        (prev) => {
          const next = new URLSearchParams(prev);
          next.delete('error');
          next.delete('error_description');
          return next;
        },
        { replace: true },
      );
    }
    void refresh();
  }, [session, urlError, setParams, refresh]);

  const screen = decideScreen({
    configFailed: false,
    configLoading: false,
    hasToken,
    authError: !!authError,
    user,
    accountLoading: profile.isPending || config.isPending,
    clusterCount: account?.clusters.length ?? 0,
  });

  if (screen === 'auth-error' && authError) {
    return (
      <AuthErrorScreen
        error={authError}
        autoRefresh={!autoRefreshed.current}
        onAutoRefresh={() => (autoRefreshed.current = true)}
        onRecovered={recover}
      />
    );
  }
  if (screen === 'loading' || (!account && screen !== 'login')) return <LoadingScreen />;

  const inApp = screen === 'no-cluster' || screen === 'app';
  if (inApp && PreloadedAppRoutes) {
    return (
      <AccountContext.Provider value={account}>
        <PreloadedAppRoutes hasCluster={screen === 'app'} />
      </AccountContext.Provider>
    );
  }
  return (
    <AccountContext.Provider value={account}>
      <Suspense fallback={<LoadingScreen />}>
        {screen === 'login' && <LoginRoutes />}
        {screen === 'terms' && <TermsScreen />}
        {screen === 'onboarding' && <OnboardingRoutes />}
        {inApp && <LazyAppRoutes hasCluster={screen === 'app'} />}
      </Suspense>
    </AccountContext.Provider>
  );
}
