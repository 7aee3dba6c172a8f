/** What other areas (jobs, apps, buckets) use from the files area. */
export { ChooseFilesPathModal, chosenPath, type ChosenFilesPath } from './ChooseFilesPathModal';
export { fullUri, isFolder, splitPath, storageValue } from './paths';
export { ShareDialog } from './ShareDialog';
export { FolderBrowser, FolderPages, useFolderBrowsing, type OpenFolder } from './FolderBrowser';
export { ActionBar } from './ActionBar';
export { DeleteDialog } from './DeleteDialog';
export { NameDialog } from './NameDialog';
export { FILE_TEXTS } from './texts';
export { useClickCount } from './useClickCount';
