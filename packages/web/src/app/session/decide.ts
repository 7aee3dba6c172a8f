import type { User } from '../../api/types';

export type Screen =
  | 'config-error'
  | 'auth-error'
  | 'loading'
  | 'terms'
  | 'onboarding'
  | 'no-cluster'
  | 'app'
  | 'login';

export interface StartupState {
  configFailed: boolean;
  configLoading: boolean;
  /** `undefined` while the stored token is being read. */
  hasToken: boolean | undefined;
  authError: boolean;
  user: User | undefined;
  accountLoading: boolean;
  clusterCount: number;
}

/** Startup order: configuration, token, profile and clusters, then one screen. */
export function decideScreen(s: StartupState): Screen {
  if (s.configFailed) return 'config-error';
  if (s.configLoading || s.hasToken === undefined) return 'loading';
  if (s.authError) return 'auth-error';
  if (!s.hasToken) return 'login';
  if (s.accountLoading || !s.user) return 'loading';
  if (!s.user.termsAccepted) return 'terms';
  // The system administrator of a fresh install has no organization, yet must reach
  // Administration: the application without the cluster areas (which need an organization),
  // whose home page then leads to onboarding.
  if (!s.user.orgs?.length) return s.user.systemRole ? 'no-cluster' : 'onboarding';
  if (s.clusterCount === 0) return 'no-cluster';
  return 'app';
}
