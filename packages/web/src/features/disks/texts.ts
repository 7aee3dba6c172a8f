import { COST_TEXTS, perDay } from '../billing/cost/cost';

/** Every text of the Disks area. */
export const DISK_TEXTS = {
  title: 'Disks',
  create: 'Create new disk',
  empty: 'No disks found',
  emptyHint: 'A disk keeps data between jobs of this project. Create one to mount it in a job.',
  loadFailed: 'Something went wrong',
  missingProject: 'Choose a project to see its disks.',
  columns: {
    name: 'Name',
    usage: 'Used / Storage',
    credits: COST_TEXTS.perDay,
    owner: 'Owner',
    status: 'Status',
    created: 'Created',
    actions: 'Actions',
  },
  drawer: {
    id: 'ID',
    uri: 'URI',
    status: 'Status',
    owner: 'Owner',
    storage: 'Storage',
    used: 'Used',
    lifespan: 'Lifespan',
    lastUsage: 'Last used',
    created: 'Created',
    noLifespan: 'Kept until deleted',
    never: 'Never',
  },
  unnamed: '(no name)',
  unknownUsage: '?',
  delete: 'Delete',
  deleteLabel: (name: string) => `Delete disk ${name}`,
  confirmTitle: 'Delete disk',
  confirmText: (name: string) =>
    `Disk ${name} and everything stored on it will be deleted. This cannot be undone.`,
  cancel: 'Cancel',
  deleted: (name: string) => `Disk ${name} was deleted`,
  form: {
    title: 'Create new disk',
    costs: (credits: number) => (credits === 0 ? COST_TEXTS.free : `Costs ${perDay(credits)}`),
    storage: 'Storage',
    unit: 'Unit',
    name: 'Name',
    nameHint:
      'Optional. Letters, digits, spaces and hyphens; the name should uniquely identify the disk in the cluster.',
    willBeCreatedAs: (name: string) => `Will be created as "${name}"`,
    lifespan: 'Lifespan',
    lifespanHint: 'Optional, like 1d 2h 3m. An unused disk is deleted after this time.',
    submit: 'Create',
    created: (name: string) => `Disk ${name} was created`,
  },
  errors: {
    storageRequired: 'Storage is required',
    storageNumber: 'Storage must be a number',
    storagePositive: 'Storage must be positive',
    name: 'Invalid name',
    lifespan: 'Invalid lifespan value',
  },
  chooser: {
    title: 'Choose a Disks Path',
    select: 'Select',
    cancel: 'Cancel',
  },
};

/** Storage is typed in GB (10^9 bytes) or TB (10^12 bytes). */
export const STORAGE_UNITS = { GB: 1e9, TB: 1e12 } as const;
export type StorageUnit = keyof typeof STORAGE_UNITS;
export const DEFAULT_STORAGE_UNIT: StorageUnit = 'GB';

/** 3 to 40 characters of letters, digits, spaces and hyphens. */
export const DISK_NAME_INPUT = /^[A-Za-z0-9 -]{3,40}$/;
