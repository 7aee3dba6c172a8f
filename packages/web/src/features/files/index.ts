/** What other areas (jobs, apps) use from the files area. */
export { ChooseFilesPathModal, chosenPath, type ChosenFilesPath } from './ChooseFilesPathModal';
export { fullUri, splitPath, storageValue } from './paths';
export { ShareDialog } from './ShareDialog';
