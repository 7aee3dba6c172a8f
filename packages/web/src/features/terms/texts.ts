export const TERMS_TEXTS = {
  title: 'Terms of Use',
  intro: (title: string) =>
    `Before you continue, please read and accept the Terms of Use of ${title}.`,
  read: 'Read the Terms of Use',
  checkbox: 'I have read and agree to the Terms of Use',
  agree: 'I agree',
  logOut: 'Log out',
  missingUsername:
    'Your username is missing, so the terms cannot be accepted. Please contact support.',
  failed: 'The terms could not be accepted',
};
