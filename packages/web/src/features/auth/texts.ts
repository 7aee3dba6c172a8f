export const AUTH_TEXTS = {
  welcome: (title: string) => `Welcome to ${title}`,
  intro: 'Sign in to your account, or create one to get started.',
  signIn: 'Sign in',
  createAccount: 'Create account',
  needHelp: 'Need help?',
  completing: 'Completing sign-in…',
  callbackError: 'callback_error',
};
