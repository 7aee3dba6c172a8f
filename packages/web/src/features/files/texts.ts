/** Every text of the Files area. */
export const FILE_TEXTS = {
  title: 'Files',
  search: 'Search',
  searchPlaceholder: 'Search in this folder',
  home: 'Home',
  up: 'Up',
  upLabel: 'Go to the parent folder',
  addFolder: 'Add folder',
  upload: 'Upload',
  empty: 'This folder is empty',
  emptyHint: 'Upload files or drag and drop them here, or add a folder.',
  emptyReadOnly: 'There is nothing in this folder yet.',
  noMatches: (search: string) => `No files or folders match "${search}"`,
  loadFailed: 'Something went wrong',
  missingProject: 'Choose a project to see its files.',
  dropHere: 'Drop files to upload them to this folder',
  cancel: 'Cancel',
  folder: 'Folder',
  file: 'File',
  actions: {
    label: 'Selected item',
    share: 'Share',
    open: 'Open in new tab',
    download: 'Download',
    rename: 'Rename',
    delete: 'Delete',
    close: 'Clear selection',
  },
  drawer: {
    savedIn: 'Saved in',
    extension: 'Extension',
    modified: 'Modified',
    size: 'Size',
    type: 'Type',
    noExtension: 'None',
    noPreview: 'No preview for this kind of file.',
    previewFailed: 'The preview could not be loaded.',
    truncated: 'Only the beginning of the file is shown.',
  },
  addFolderDialog: {
    title: 'Add folder',
    name: 'Folder name',
    submit: 'Add',
    created: (name: string) => `Folder ${name} was created`,
  },
  renameDialog: {
    title: 'Rename',
    name: 'New name',
    submit: 'Rename',
    renamed: (from: string, to: string) => `${from} was renamed to ${to}`,
  },
  deleteDialog: {
    title: 'Delete',
    folderText: (name: string) =>
      `Folder ${name} and everything in it will be deleted. This cannot be undone.`,
    fileText: (name: string) => `File ${name} will be deleted. This cannot be undone.`,
    submit: 'Delete',
    deleted: (name: string) => `${name} was deleted`,
  },
  shareDialog: {
    title: (name: string) => `Share ${name}`,
    username: 'Username',
    permission: 'Permission',
    submit: 'Share',
    granted: (name: string) => `Granted permission for ${name}`,
  },
  uploads: {
    label: 'Uploads',
    cancel: (name: string) => `Cancel upload of ${name}`,
    dismiss: (name: string) => `Dismiss ${name}`,
    done: 'Uploaded',
    cancelled: 'Cancelled',
    failed: 'Failed',
    uploaded: (n: number) => (n === 1 ? '1 file was uploaded' : `${n} files were uploaded`),
  },
  chooser: {
    title: 'Choose a Files Path',
    select: 'Select',
    current: 'Select this folder',
    cancel: 'Cancel',
    empty: 'No folders or files here',
  },
  errors: {
    required: 'Required',
    slash: 'A name cannot contain "/"',
    dots: 'A name cannot be "." or ".."',
    username: 'Enter a username',
  },
};

/** The Files area's click-count window, search debounce and dialog widths. */
export const DOUBLE_CLICK_MS = 200;
export const SEARCH_DEBOUNCE_MS = 400;
export const DIALOG_WIDTH = 520;
export const CHOOSER_WIDTH = 720;
/** The text preview reads at most this much of a file (a ranged op=OPEN). */
export const TEXT_PREVIEW_BYTES = 64 * 1024;

export const PERMISSIONS = ['read', 'write', 'manage'] as const;
