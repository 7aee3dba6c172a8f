import type { MemberRole } from '@orrery/contract';
import type { NameMessages } from '../../ui/names';

export const PROJECT_NAME_MESSAGES: NameMessages = {
  required: 'Project name is required',
  invalid: 'Project name is invalid',
  taken: 'Project with such name already exits',
};

/** The member roles (docs/permissions.md), offered as the default role of new members. */
export const DEFAULT_ROLE_OPTIONS: MemberRole[] = ['reader', 'writer', 'manager'];
export const DEFAULT_ROLE: MemberRole = 'writer';

export const PROJECT_TEXTS = {
  createTitle: 'Create project',
  createIntro: (org: string, cluster: string) =>
    `The project is created in organization ${org} on cluster ${cluster}. You become its administrator.`,
  nameLabel: 'Project name',
  namePlaceholder: 'my-project',
  nameHint: 'Letters, digits, spaces and hyphens.',
  willBeCreatedAs: (name: string) => `Will be created as "${name}"`,
  defaultRoleLabel: 'Default role of new members',
  isDefaultLabel: 'Default project',
  isDefaultHint: 'New members of the organization on this cluster are added to it.',
  create: 'Create',
  cancel: 'Back',
  somethingWentWrong: 'Something went wrong',
  missingCluster: 'Missing cluster context',
  noProjects: "You don't have any projects",
  noProjectsHint: (org: string, cluster: string) =>
    `Organization ${org} has no project of yours on cluster ${cluster} yet.`,
  createAction: 'Create project',
};
