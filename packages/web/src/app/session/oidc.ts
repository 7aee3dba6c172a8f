import { InMemoryWebStorage, UserManager, WebStorageStateStore } from 'oidc-client-ts';
import type { User as OidcUser } from 'oidc-client-ts';

export const OIDC_SCOPE = 'openid profile email offline_access';
export const CALLBACK_PATH = '/auth/callback';
/** Claims that carry the platform user name, most specific first (same order as the server). */
const USERNAME_CLAIMS = ['identity', 'https://platform.neuromation.io/user', 'preferred_username'];

/**
 * Where the signed-in user's tokens are kept: this page's memory, which no other page's script
 * reads (localStorage and sessionStorage are open to every script of the origin). A reload or a
 * new tab signs in again, silently, from the identity provider's session (an HttpOnly cookie).
 */
export const TOKEN_STORAGE = new InMemoryWebStorage();

/** True inside the hidden frame of a silent sign-in, which only hands its answer to the page. */
export const inSilentFrame = () => window.parent !== window;

export function createUserManager(
  { issuer, clientId }: { issuer: string; clientId: string },
  origin = window.location.origin,
) {
  return new UserManager({
    authority: issuer,
    client_id: clientId,
    redirect_uri: `${origin}${CALLBACK_PATH}`,
    // The same page completes the hidden frame's sign-in: at start and when no refresh token
    // was granted, the provider answers from its session (`prompt=none`).
    silent_redirect_uri: `${origin}${CALLBACK_PATH}`,
    post_logout_redirect_uri: `${origin}/`,
    scope: OIDC_SCOPE,
    response_type: 'code',
    automaticSilentRenew: true,
    userStore: new WebStorageStateStore({ store: TOKEN_STORAGE }),
  });
}

export function decodeJwtPayload(token: string): Record<string, unknown> | null {
  const part = token.split('.')[1];
  if (!part) return null;
  try {
    const base64 = part.replace(/-/g, '+').replace(/_/g, '/');
    const padded = base64.padEnd(base64.length + ((4 - (base64.length % 4)) % 4), '=');
    const bytes = Uint8Array.from(atob(padded), (c) => c.charCodeAt(0));
    return JSON.parse(new TextDecoder().decode(bytes)) as Record<string, unknown>;
  } catch {
    return null;
  }
}

const firstClaim = (claims: Record<string, unknown> | null | undefined) => {
  for (const name of USERNAME_CLAIMS) {
    const value = claims?.[name];
    if (typeof value === 'string' && value) return value;
  }
  return null;
};

/** The platform user name: from the access token, else from the ID token's profile. */
export const usernameOf = (user: Pick<OidcUser, 'access_token' | 'profile'> | null) =>
  user ? (firstClaim(decodeJwtPayload(user.access_token)) ?? firstClaim(user.profile)) : null;

export interface ReturnState {
  returnTo?: string;
  /** A `prompt=none` sign-in at the top level: "not signed in" is no error, only a sign-in page. */
  silent?: boolean;
}

/** The answers of a `prompt=none` request that only mean the user has no session there. */
export const NOT_SIGNED_IN = new Set([
  'login_required',
  'interaction_required',
  'consent_required',
  'account_selection_required',
]);

export const returnPathOf = (state: unknown): string => {
  const returnTo = (state as ReturnState | undefined)?.returnTo;
  // Only same-origin paths: the state round-trips through the identity provider.
  return typeof returnTo === 'string' && returnTo.startsWith('/') && !returnTo.startsWith('//')
    ? returnTo
    : '/';
};
