import { ChooseImageFlow, type ImageChoice } from '../../features/images';
import { FORM_TEXTS } from '../texts';
import { PickerInput, type TextProps } from './PickerFields';

/**
 * An image reference: typed (any public image) or chosen from the project's images with "Choose
 * Image" then "Choose Image Tag"; a chosen image is sent as its registry reference.
 */
export function ImageField(
  props: TextProps & {
    /** Takes a chosen image instead of `onChange(reference)`. */
    onChoose?(choice: ImageChoice): void;
  },
) {
  const { onChoose, ...text } = props;
  return (
    <PickerInput
      {...text}
      chooseLabel={FORM_TEXTS.chooseImage}
      chooseWidth={130}
      modal={(opened, close) => (
        <ChooseImageFlow
          place={props.place!}
          opened={opened}
          onClose={close}
          onChoose={(c) => (onChoose ? onChoose(c) : props.onChange(c.reference))}
        />
      )}
    />
  );
}
