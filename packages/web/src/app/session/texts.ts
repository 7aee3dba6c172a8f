export const SESSION_TEXTS = {
  configFailure: 'Cannot fetch configuration, contact support',
  loading: 'Loading…',
  authErrorFallbackTitle: 'Authentication error',
  authErrorFallbackText: 'Your session could not be verified.',
  refreshing: 'Refreshing your session…',
  tryAgain: 'Sign in again',
  logOut: 'Log out',
  noClusterTitle: 'Welcome',
  noClusterText:
    "No clusters are available for your organization yet. Please contact your organization's administrator or support to get access to a cluster.",
  somethingWentWrong: 'Something went wrong',
};

/** `access_denied` → "Access denied". */
export const titleOfErrorCode = (code: string | null | undefined) => {
  const words = (code ?? '').replace(/[_-]+/g, ' ').trim();
  return words
    ? words.charAt(0).toUpperCase() + words.slice(1).toLowerCase()
    : SESSION_TEXTS.authErrorFallbackTitle;
};
