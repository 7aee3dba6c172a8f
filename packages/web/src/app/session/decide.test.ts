import { describe, expect, it } from 'vitest';
import { camel } from '../../test/fixtures';
import { decideScreen } from './decide';
import type { StartupState } from './decide';
import { decodeJwtPayload, returnPathOf, usernameOf } from './oidc';
import { titleOfErrorCode } from './texts';

const org = { name: 'acme', role: 'user' as const, balance: { credits: null }, projectsCount: 0 };
const base: StartupState = {
  configFailed: false,
  configLoading: false,
  hasToken: true,
  authError: false,
  user: camel.user({}),
  accountLoading: false,
  clusterCount: 1,
};
const withOrg = { ...base, user: { ...base.user!, orgs: [org] } };

describe('startup order', () => {
  it('decides exactly one screen, in the startup order', () => {
    expect(decideScreen({ ...withOrg, configFailed: true })).toBe('config-error');
    expect(decideScreen({ ...withOrg, configLoading: true })).toBe('loading');
    expect(decideScreen({ ...withOrg, hasToken: undefined })).toBe('loading');
    expect(decideScreen({ ...withOrg, authError: true })).toBe('auth-error');
    expect(decideScreen({ ...withOrg, hasToken: false })).toBe('login');
    expect(decideScreen({ ...withOrg, accountLoading: true })).toBe('loading');
    expect(decideScreen({ ...withOrg, user: { ...withOrg.user!, termsAccepted: false } })).toBe(
      'terms',
    );
    expect(decideScreen(base)).toBe('onboarding');
    expect(decideScreen({ ...withOrg, clusterCount: 0 })).toBe('no-cluster');
    expect(decideScreen(withOrg)).toBe('app');
  });

  it('lets a system administrator without an organization into the application', () => {
    const admin = { ...base.user!, systemRole: 'admin' as const };
    // Not the cluster areas: they need an organization, whatever clusters exist.
    expect(decideScreen({ ...base, user: admin })).toBe('no-cluster');
    expect(decideScreen({ ...base, user: { ...admin, orgs: withOrg.user!.orgs } })).toBe('app');
  });
});

const base64url = (text: string) =>
  btoa(String.fromCharCode(...new TextEncoder().encode(text)))
    .replace(/=+$/, '')
    .replace(/\+/g, '-')
    .replace(/\//g, '_');
const jwt = (claims: object) => `e30.${base64url(JSON.stringify(claims))}.sig`;

describe('token helpers', () => {
  it('reads the user name from the identity claim, then preferred_username', () => {
    expect(usernameOf({ access_token: jwt({ identity: 'alice' }), profile: {} as never })).toBe(
      'alice',
    );
    expect(
      usernameOf({ access_token: 'opaque', profile: { preferred_username: 'bob' } as never }),
    ).toBe('bob');
    expect(decodeJwtPayload(jwt({ name: 'Zoë' }))).toEqual({ name: 'Zoë' });
  });

  it('returns only to same-origin paths', () => {
    expect(returnPathOf({ returnTo: '/jobs?org=acme' })).toBe('/jobs?org=acme');
    expect(returnPathOf({ returnTo: '//evil.example' })).toBe('/');
    expect(returnPathOf(undefined)).toBe('/');
  });

  it('derives the auth error title from its code', () => {
    expect(titleOfErrorCode('access_denied')).toBe('Access denied');
    expect(titleOfErrorCode('')).toBe('Authentication error');
  });
});
