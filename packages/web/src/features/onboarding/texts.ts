export const ONBOARDING_TEXTS = {
  title: (name: string) => `Welcome${name ? `, ${name}` : ''}`,
  noOrg: 'You are not a member of any organization yet.',
  explain:
    'Organizations hold clusters, projects and people. Create your own organization, or ask the administrator of an existing one to invite you: their invitation will reach you by e-mail.',
  memberOf: (names: string[]) =>
    `You are a member of ${names.length === 1 ? 'the organization' : 'the organizations'} ${names.join(', ')}.`,
  explainMember:
    'Go to the console to work in your organization, or create another organization of your own.',
  adminNoOrg:
    'As the system administrator you can manage users, clusters and organizations in Administration without an organization of your own.',
  verifyBlockedMember: 'create an organization',
  toConsole: 'Go to the console',
  toAdmin: 'Go to Administration',
  createOrg: 'Create organization',
  createAnotherOrg: 'Create another organization',
  logOut: 'Log out',
  back: 'Back',
};
