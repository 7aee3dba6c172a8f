import { TOKEN_TEXTS } from '@orrery/contract';

/** The tokens tab's words; the server's messages are shared through TOKEN_TEXTS. */
export const TOKENS_UI = {
  ...TOKEN_TEXTS,
  tab: 'Tokens',
  intro:
    'Tokens let CI jobs and scripts act in this project with a role of their own, until they expire or are revoked.',
  create: 'Create token',
  name: 'Name',
  role: 'Role',
  expiry: 'Expires in',
  days: (n: number) => (n === 365 ? '1 year' : `${n} days`),
  status: 'Status',
  expires: 'Expires',
  createdBy: 'Created by',
  revoke: 'Revoke',
  revokeTitle: 'Revoke token',
  revokeText: (name: string) =>
    `Revoke token ${name}? Scripts using it are refused from their next request.`,
  cancel: 'Cancel',
  close: 'Close',
  copy: 'Copy',
  copied: 'Copied',
  yourToken: 'Your token',
  createFailed: 'Could not create the token',
  revokeFailed: 'Could not revoke the token',
} as const;
