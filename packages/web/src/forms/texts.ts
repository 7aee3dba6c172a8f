import { PATTERN_MESSAGES } from '@orrery/contract';

/**
 * Every text of the form engine. The validation messages are those users of Apolo's console know; the
 * others are the engine's own labels.
 */
export const FORM_MESSAGES = {
  required: 'Required',
  ...PATTERN_MESSAGES,
  // The schema's own bounds, which have no fixed message elsewhere.
  notANumber: 'Must be a number',
  notAnInteger: 'Must be a whole number',
  minimum: (n: number) => `Must be at least ${n}`,
  maximum: (n: number) => `Must be at most ${n}`,
  minLength: (n: number) => `Must be at least ${n} characters`,
  maxLength: (n: number) => `Must be at most ${n} characters`,
  notAnOption: 'Choose one of the options',
  // Implied by Apolo's ApoloFilesPath and MountPath classes.
  storagePath: 'The path must start with storage:',
  absolutePath: 'The path must be absolute (start with /)',
  skippedVolume: 'One of the volumes was skipped because "path" or "resource" were missed',
  fillRequired: 'Please fill in all required fields',
} as const;

export const FORM_TEXTS = {
  add: 'Add',
  remove: 'Remove',
  choose: 'Choose',
  anyOfPlaceholder: 'Choose an option',
  nullOption: 'None',
  // Tags input.
  tagsPlaceholder: 'tag-one, tag-two',
  filesPathPlaceholder: 'storage:folder',
  advanced: 'Advanced',
  // Auth choice of Apolo's IngressHttp.
  noAuthTitle: 'Make the app public?',
  noAuthWarning:
    'Without authentication anyone who knows the address can use the app and its data, without signing in.',
  noAuthConfirm: 'Make public',
  cancel: 'Cancel',
  // Integration field.
  chooseApp: 'Choose app',
  enterManually: 'Enter value',
  stopIntegration: 'Stop',
  integrationFrom: (instance: string, path: string) => `From app ${instance}, output ${path}`,
  integrationsTitle: 'App Integrations',
  integrationsEmpty: 'Integrations Not Set Up',
  integrationsEmptyHint: 'No installed app of this project offers this kind of value.',
  integrationUse: 'Use',
  // Image picker.
  chooseImage: 'Choose image',
  // Preset picker.
  presetPlaceholder: 'Choose a preset',
  presetDetails: 'Resource Preset details',
  presetDetailsButton: 'Preset details',
  presetRows: {
    name: 'Name',
    cpu: 'CPU',
    memory: 'Memory',
    gpu: 'GPU',
    credits: 'Credits per hour',
    preemptible: 'Preemptible',
    scheduler: 'Scheduler',
    roundRobin: 'Round-Robin',
    none: 'None',
    yes: 'Yes',
    no: 'No',
  },
  noPresetFound: (what: string) => `No preset name was found for the ${what} in the cluster`,
  // Env editor.
  envName: 'Name',
  envValue: 'Value',
  envSecret: 'Secret',
  addVariable: 'Add variable',
  addSecret: 'Add secret',
  envEmpty: 'No environment variables',
  // The modals that forms open.
  envModalTitle: 'The Environment Variable',
  envModalAdd: 'Add',
  envModalSave: 'Save',
  edit: 'Edit',
  // Volumes editor.
  volumeType: 'Type',
  volumeTypes: { storage: 'Files', disk: 'Disk', secret: 'Secret' },
  volumeResource: 'Resource',
  volumePath: 'Mount path',
  volumePathPlaceholder: '/mnt/data',
  volumeMode: 'Mode',
  volumeModes: { ro: 'Read-only', rw: 'Read-write' },
  addVolume: 'Add volume',
  volumesEmpty: 'No volumes',
  resourcePlaceholders: {
    storage: 'storage:folder',
    disk: 'disk:name',
    secret: 'secret:KEY',
  },
} as const;
