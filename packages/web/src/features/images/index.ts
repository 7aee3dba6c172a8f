export { ChooseImageFlow, ChooseImageModal, ChooseImageTagModal } from './ChooseImageModal';
export type { ImageChoice } from './ChooseImageModal';
