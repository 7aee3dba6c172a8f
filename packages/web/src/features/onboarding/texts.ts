export const ONBOARDING_TEXTS = {
  title: (name: string) => `Welcome${name ? `, ${name}` : ''}`,
  noOrg: 'You are not a member of any organization yet.',
  explain:
    'Organizations hold clusters, projects and people. Create your own organization, or ask the administrator of an existing one to invite you: their invitation will reach you by e-mail.',
  createOrg: 'Create organization',
  logOut: 'Log out',
  back: 'Back',
};
