/** Every text of the secrets area. */
export const SECRET_TEXTS = {
  title: 'Secrets',
  intro: 'Values that jobs and apps of this project receive as environment variables or files.',
  create: 'Create secret',
  createTitle: 'Create new secret',
  keyLabel: 'Key',
  keyPlaceholder: 'MY_TOKEN',
  keyHint: 'Letters, digits, ".", "_" and "-"; spaces are removed.',
  keyRequired: 'Key is required',
  valueLabel: 'Value',
  valueRequired: 'Value is required',
  cancel: 'Cancel',
  created: 'The secret is created',
  empty: 'No secrets found',
  emptyHintManager: 'Create a secret to pass tokens and passwords to jobs and apps.',
  emptyHintReader: 'Only project managers can create secrets.',
  noProject: 'Choose a project to see its secrets',
  columnKey: 'Key',
  columnOwner: 'Owner',
  columnActions: 'Actions',
  delete: 'Delete',
  deleteLabel: (key: string) => `Delete secret ${key}`,
  deleteTitle: 'Delete secret',
  deleteConfirm: (key: string) =>
    `Delete secret ${key}? Jobs and apps that use it will no longer receive its value.`,
  deleted: 'The secret is deleted',
  somethingWentWrong: 'Something went wrong',
  // Secret picker and the modals of app and job forms.
  pickerLabel: 'Secret',
  pickerPlaceholder: 'Choose a secret',
  pickExisting: 'Choose existing',
  pickNew: 'Create new',
  pickerNoneReader: 'No secrets found. Ask a project manager to create one.',
  envTitle: 'Add Environment Secret',
  envNameLabel: 'Environment variable name',
  envNamePlaceholder: 'API_TOKEN',
  envAdd: 'Add secret',
  pathTitle: 'Choose a Secret Path',
  pathApply: 'Apply',
} as const;

/** Dialog width (520/640/720/1024 px). */
export const SECRET_DIALOG_WIDTH = 520;
