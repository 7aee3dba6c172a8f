import { useEffect, useMemo, useRef, useState } from 'react';
import type { ReactNode } from 'react';
import type { User as OidcUser } from 'oidc-client-ts';
import { useQueryClient } from '@tanstack/react-query';
import { setTokenSource } from '../../api/client';
import { useAnonymousConfig } from '../../api/config';
import type { PlatformConfig } from '../../api/types';
import { notifyError } from '../../ui/notify';
import { CALLBACK_PATH, createUserManager, inSilentFrame, NOT_SIGNED_IN, usernameOf } from './oidc';
import { SessionContext } from './session-context';
import type { AuthErrorInfo, Session, SignInOptions } from './session-context';
import { ConfigFailureScreen, LoadingScreen } from './screens';
import { SESSION_TEXTS } from './texts';

/** Startup step 1: the configuration, fetched anonymously; nothing else can start without it. */
export function SessionProvider({ children }: { children: ReactNode }) {
  const config = useAnonymousConfig();
  if (config.isPending) return <LoadingScreen />;
  if (config.isError) return <ConfigFailureScreen />;
  return <TokenSession config={config.data}>{children}</TokenSession>;
}

/**
 * A hidden frame's sign-in that the issuer answered "not signed in", or that got no answer:
 * the issuer may not have seen its cookie there. A network failure is not retried.
 */
const askAgainAtTop = (err: unknown) => {
  const e = err as { name?: string; error?: string } | null;
  return (
    e?.name === 'ErrorTimeout' || (e?.name === 'ErrorResponse' && NOT_SIGNED_IN.has(e.error ?? ''))
  );
};

/**
 * Startup step 2: the token, kept by oidc-client-ts in this page's memory. A page without one
 * (a reload, a new tab) asks the identity provider in a hidden frame (`prompt=none`): its
 * session cookie, which no script reads, signs the user in again without a screen.
 */
function TokenSession({ config, children }: { config: PlatformConfig; children: ReactNode }) {
  const queryClient = useQueryClient();
  const userManager = useMemo(
    () => createUserManager({ issuer: config.issuer, clientId: config.clientId }),
    [config.issuer, config.clientId],
  );
  const [oidcUser, setOidcUser] = useState<OidcUser | null | undefined>(undefined);
  const [authError, setAuthError] = useState<AuthErrorInfo | null>(null);
  const userRef = useRef<OidcUser | null | undefined>(undefined);
  userRef.current = oidcUser;

  useEffect(() => {
    setTokenSource(() => userRef.current?.access_token);
    return () => setTokenSource(() => null);
  }, []);

  useEffect(() => {
    document.title = config.branding.title;
  }, [config.branding.title]);

  useEffect(() => {
    let live = true;
    const loaded = (user: OidcUser) => {
      if (live) setOidcUser(user);
    };
    const unloaded = () => {
      if (live) setOidcUser(null);
    };
    const expired = () => {
      userManager.signinSilent().catch(() => userManager.removeUser());
    };
    userManager.events.addUserLoaded(loaded);
    userManager.events.addUserUnloaded(unloaded);
    userManager.events.addAccessTokenExpired(expired);
    // The callback page completes a sign-in itself; inside the hidden frame it only hands the
    // answer to its parent and must not start a frame of its own.
    const completing = window.location.pathname === CALLBACK_PATH || inSilentFrame();
    userManager
      .getUser()
      .then(async (user) => {
        if (!completing && (!user || user.expired)) {
          let answer: unknown = null;
          user = await userManager.signinSilent().catch((err: unknown) => {
            answer = err;
            return null;
          });
          if (
            !user &&
            askAgainAtTop(answer) &&
            new URL(config.issuer).origin !== window.location.origin
          ) {
            // An issuer on another origin (a white-label host, an external issuer) may get no
            // cookie in a frame of this site: ask it once more at the top level, where it does.
            // Its callback lands back here with the user, or shows the sign-in page.
            const { pathname, search, hash } = window.location;
            await userManager.signinRedirect({
              prompt: 'none',
              redirectMethod: 'replace',
              state: { returnTo: `${pathname}${search}${hash}`, silent: true },
            });
            return;
          }
        }
        if (live) setOidcUser(user && !user.expired ? user : null);
      })
      .catch(() => live && setOidcUser(null));
    return () => {
      live = false;
      userManager.events.removeUserLoaded(loaded);
      userManager.events.removeUserUnloaded(unloaded);
      userManager.events.removeAccessTokenExpired(expired);
    };
  }, [userManager, config.issuer]);

  const session = useMemo<Session>(
    () => ({
      config,
      userManager,
      oidcUser,
      username: usernameOf(oidcUser ?? null),
      authError,
      setAuthError,
      signIn: ({ signup, loginHint, returnTo, prompt, invite }: SignInOptions = {}) =>
        userManager.signinRedirect({
          state: { returnTo },
          login_hint: loginHint,
          prompt,
          extraQueryParams: {
            ...(signup ? { screen: 'signup' } : {}),
            ...(invite ? { invite: invite.id, invite_proof: invite.proof } : {}),
          },
        }),
      signOut: async () => {
        queryClient.clear();
        try {
          await userManager.signoutRedirect();
        } catch {
          // The failed sign-out is told to the user just below; this only tidies the stored user.
          await userManager.removeUser().catch(() => undefined);
          notifyError(SESSION_TEXTS.somethingWentWrong);
        }
      },
      refreshToken: async () => {
        try {
          return !!(await userManager.signinSilent());
        } catch {
          return false;
        }
      },
    }),
    [config, userManager, oidcUser, authError, queryClient],
  );

  return <SessionContext.Provider value={session}>{children}</SessionContext.Provider>;
}
