import { bucketCredentialsCreated, GCP_BUCKET_NOT_VIEWABLE } from '@orrery/contract';

/** Every text of the Buckets area. */
export const BUCKET_TEXTS = {
  title: 'Buckets',
  create: 'Create bucket',
  createCredentials: 'Create credentials',
  search: 'Search buckets',
  empty: 'No buckets found',
  emptyHint:
    'A bucket is object storage for this project, reachable with any S3 client. Create one or ' +
    'import one with the CLI.',
  loadFailed: 'Something went wrong',
  missingProject: 'Choose a project to see its buckets.',
  gcpNotViewable: GCP_BUCKET_NOT_VIEWABLE,
  unnamed: '(no name)',
  openLabel: (name: string) => `Bucket ${name}`,
  providers: {
    aws: 'AWS S3',
    minio: 'MinIO / S3',
    seaweedfs: 'SeaweedFS',
    azure: 'Azure Blob Storage',
    gcp: 'Google Cloud Storage',
    open_stack: 'OpenStack Swift',
  },
  drawer: {
    id: 'ID',
    uri: 'URI',
    owner: 'Owner',
    provider: 'Provider',
    created: 'Created',
    imported: 'Imported',
    yes: 'Yes',
    no: 'No',
    credentials: 'Credentials',
    noCredentials: 'No credentials for this bucket yet.',
    readOnly: 'read-only',
    readWrite: 'read-write',
    open: 'Open bucket',
  },
  view: {
    back: 'All buckets',
    notFound: 'Bucket not found',
    empty: 'This bucket is empty',
    emptyReadOnly: 'There is nothing in this bucket yet.',
    more: 'Load more',
  },
  delete: 'Delete',
  deleteLabel: (name: string) => `Delete bucket ${name}`,
  confirmTitle: 'Delete bucket',
  confirmText: (name: string, imported: boolean) =>
    imported
      ? `Bucket ${name} will be forgotten by Orrery; its data stays with its provider.`
      : `Bucket ${name} and every object in it will be deleted. This cannot be undone.`,
  cancel: 'Cancel',
  deleted: (name: string) => `Bucket ${name} was deleted`,
  form: {
    title: 'Create bucket',
    name: 'Name',
    nameHint:
      'Optional. 3 to 40 characters: lowercase letters, digits and single hyphens, starting with a letter.',
    submit: 'Create',
    created: (name: string) => `Bucket ${name} was created`,
  },
  credentialsForm: {
    title: 'Create credentials',
    name: 'Name',
    bucket: 'Bucket',
    access: 'Access',
    readOnly: 'Read-only',
    readWrite: 'Read-write',
    submit: 'Create',
    nameRequired: 'Name must be at least 1 character',
    created: bucketCredentialsCreated,
    shownOnce:
      'Copy these keys now: they are shown only once, and nobody can see them again, you included. ' +
      'Lost keys are replaced by deleting these credentials and creating new ones.',
    keysOf: (bucket: string) => `Keys for bucket ${bucket}`,
    copy: (label: string) => `Copy ${label}`,
    done: 'Done',
    readWriteRefused: 'Read-write credentials need write access to this bucket.',
    providerKeys:
      'Credentials to this bucket carry the keys it was imported with, which can write it: they ' +
      'need write access to it.',
    /** Wire names of provider keys (camelCased by the client), as S3 clients call them. */
    keyLabels: {
      endpointUrl: 'Endpoint URL',
      bucketName: 'Bucket name',
      regionName: 'Region',
      accessKeyId: 'Access key ID',
      secretAccessKey: 'Secret access key',
      sessionToken: 'Session token',
      storageEndpoint: 'Storage endpoint',
      sasToken: 'SAS token',
      keyData: 'Service account key',
    } as Record<string, string>,
  },
};

/** The search waits 400 ms after the last keystroke. */
export const SEARCH_DEBOUNCE_MS = 400;
