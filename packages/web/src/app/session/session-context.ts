import { createContext, useContext } from 'react';
import type { User as OidcUser, UserManager } from 'oidc-client-ts';
import type { PlatformConfig } from '../../api/types';

export interface AuthErrorInfo {
  code: string;
  text: string;
}

export interface SignInOptions {
  signup?: boolean;
  loginHint?: string;
  returnTo?: string;
  /** `login` forces the identity provider to ask again, e.g. to switch accounts. */
  prompt?: 'login';
  /** From an invitation mail: lets the sign-up verify the invited address. */
  invite?: { id: string; proof: string };
}

export interface Session {
  /** The anonymous configuration: issuer, client id, branding, support address. */
  config: PlatformConfig;
  userManager: UserManager;
  /** `undefined` while the stored token is being read. */
  oidcUser: OidcUser | null | undefined;
  username: string | null;
  authError: AuthErrorInfo | null;
  setAuthError: (error: AuthErrorInfo | null) => void;
  signIn: (options?: SignInOptions) => Promise<void>;
  signOut: () => Promise<void>;
  /** Silent renewal; resolves to whether a fresh token was obtained. */
  refreshToken: () => Promise<boolean>;
}

export const SessionContext = createContext<Session | null>(null);

export function useSession(): Session {
  const session = useContext(SessionContext);
  if (!session) throw new Error('useSession must be used inside <SessionProvider>');
  return session;
}

/** For components that also render before the configuration exists (e.g. support links). */
export const useOptionalSession = () => useContext(SessionContext);
