import type { NameMessages } from '../../ui/names';

export const ORG_NAME_MESSAGES: NameMessages = {
  required: 'Organization name is required',
  invalid: 'Organization name is invalid',
  taken: 'Organization with such name already exits',
};

export const ORG_TEXTS = {
  verifyBlocked: 'create an organization',
  createTitle: 'Create organization',
  createIntro:
    'An organization holds your clusters, projects and people. You become its administrator.',
  nameLabel: 'Organization name',
  namePlaceholder: 'my-organization',
  nameHint: 'Letters, digits, spaces and hyphens.',
  willBeCreatedAs: (name: string) => `Will be created as "${name}"`,
  create: 'Create',
  cancel: 'Back',
  somethingWentWrong: 'Something went wrong',
  noOrganization: 'No organization',
};
