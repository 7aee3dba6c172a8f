export const LAYOUT_TEXTS = {
  home: 'Home',
  docs: 'Docs',
  /** Served by the platform next to the console; opened outside the app. */
  docsHref: '/docs/',
  cluster: 'Cluster',
  project: 'Project',
  noCluster: 'No cluster',
  noProject: 'No project',
  settings: 'Settings',
  people: 'People',
  billing: 'Billing',
  switchCluster: 'Switch cluster',
  switchProject: 'Switch project',
  createProject: 'Create new project',
  organizations: 'Organizations',
  createOrg: 'Create new organization',
  administration: 'Administration',
  logOut: 'Log out',
  projectsCount: (n: number) => `${n} ${n === 1 ? 'project' : 'projects'}`,
  credits: 'Credits',
  unlimited: 'Unlimited',
  creditsUnparseable: 'Cannot parse organization balance for the organization',
  invites: (n: number) => `You have ${n} pending ${n === 1 ? 'invitation' : 'invitations'}`,
  viewInvites: 'View invitations',
  openMenu: 'Toggle navigation',
};

export const LOGIN_HINT_TEXTS = {
  title: 'Different account',
  body: (hint: string, email: string) =>
    `This link is meant for ${hint}, but you are signed in as ${email}.`,
  switch: (hint: string) => `Sign out and sign in as ${hint}`,
  stay: (email: string) => `Continue as ${email}`,
};
