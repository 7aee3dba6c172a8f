import { UserManager, WebStorageStateStore } from 'oidc-client-ts';
import type { User as OidcUser } from 'oidc-client-ts';

export const OIDC_SCOPE = 'openid profile email offline_access';
export const CALLBACK_PATH = '/auth/callback';
/** Claims that carry the platform user name, most specific first (same order as the server). */
const USERNAME_CLAIMS = ['identity', 'https://platform.neuromation.io/user', 'preferred_username'];

export function createUserManager(
  { issuer, clientId }: { issuer: string; clientId: string },
  origin = window.location.origin,
) {
  return new UserManager({
    authority: issuer,
    client_id: clientId,
    redirect_uri: `${origin}${CALLBACK_PATH}`,
    // The same page completes iframe renewals when no refresh token was granted.
    silent_redirect_uri: `${origin}${CALLBACK_PATH}`,
    post_logout_redirect_uri: `${origin}/`,
    scope: OIDC_SCOPE,
    response_type: 'code',
    automaticSilentRenew: true,
    // The token is kept in the browser so a reload or a new tab stays signed in.
    userStore: new WebStorageStateStore({ store: window.localStorage }),
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
}

export const returnPathOf = (state: unknown): string => {
  const returnTo = (state as ReturnState | undefined)?.returnTo;
  // Only same-origin paths: the state round-trips through the identity provider.
  return typeof returnTo === 'string' && returnTo.startsWith('/') && !returnTo.startsWith('//')
    ? returnTo
    : '/';
};
