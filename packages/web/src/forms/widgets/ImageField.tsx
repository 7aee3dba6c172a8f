import { useState } from 'react';
import { Button, TextInput } from '@mantine/core';
import { ChooseImageFlow, type ImageChoice } from '../../features/images';
import type { FormPlace } from '../environment';
import { FORM_TEXTS } from '../texts';

/**
 * An image reference: typed (any public image) or chosen from the project's images with "Choose
 * Image" then "Choose Image Tag"; a chosen image is sent as its registry reference (apolo-wire §2).
 */
export function ImageField(props: {
  label: string;
  description?: string;
  placeholder?: string;
  required: boolean;
  error?: string;
  place: FormPlace | null;
  value: string;
  onChange(value: string): void;
  /** Takes a chosen image instead of `onChange(reference)`. */
  onChoose?(choice: ImageChoice): void;
}) {
  const { place, value, onChange, onChoose, required, ...rest } = props;
  const [choosing, setChoosing] = useState(false);
  return (
    <>
      <TextInput
        {...rest}
        withAsterisk={required}
        value={value}
        onChange={(e) => onChange(e.currentTarget.value)}
        rightSectionWidth={place ? 130 : undefined}
        rightSection={
          place && (
            <Button size="compact-sm" variant="light" onClick={() => setChoosing(true)}>
              {FORM_TEXTS.chooseImage}
            </Button>
          )
        }
      />
      {place && (
        <ChooseImageFlow
          place={place}
          opened={choosing}
          onClose={() => setChoosing(false)}
          onChoose={(c) => (onChoose ? onChoose(c) : onChange(c.reference))}
        />
      )}
    </>
  );
}
