import type { ProjectPlace } from '@orrery/contract';
import { useState, type ReactNode } from 'react';
import { Button, TextInput } from '@mantine/core';
import { ChooseFilesPathModal, splitPath } from '../../features/files';
import { ChooseSecretPathModal } from '../../features/secrets';

import { FORM_TEXTS } from '../texts';

export interface TextProps {
  label: string;
  description?: string;
  placeholder?: string;
  required: boolean;
  error?: string;
  place: ProjectPlace | null;
  value: string;
  onChange(value: string): void;
}

/** A typed value with a Choose button that opens the project's chooser (only with a project). */
export function PickerInput(
  props: TextProps & {
    modal(open: boolean, close: () => void): ReactNode;
    /** The button's own words (its accessible name), instead of "Choose <label>". */
    chooseLabel?: string;
    chooseWidth?: number;
  },
) {
  const { place, value, onChange, required, modal, chooseLabel, chooseWidth, ...rest } = props;
  const [choosing, setChoosing] = useState(false);
  return (
    <>
      <TextInput
        {...rest}
        withAsterisk={required}
        value={value}
        onChange={(e) => onChange(e.currentTarget.value)}
        rightSectionWidth={place ? (chooseWidth ?? 90) : undefined}
        rightSection={
          place && (
            <Button
              size="compact-sm"
              variant="light"
              aria-label={chooseLabel ? undefined : `${FORM_TEXTS.choose} ${props.label}`}
              onClick={() => setChoosing(true)}
            >
              {chooseLabel ?? FORM_TEXTS.choose}
            </Button>
          )
        }
      />
      {place && modal(choosing, () => setChoosing(false))}
    </>
  );
}

/** Apolo's ApoloFilesPath: `storage:…`, typed or chosen in "Choose a Files Path". */
export function FilesPathField(props: TextProps) {
  return (
    <PickerInput
      placeholder={FORM_TEXTS.filesPathPlaceholder}
      {...props}
      modal={(opened, close) => (
        <ChooseFilesPathModal
          place={props.place!}
          opened={opened}
          initialPath={props.value.startsWith('storage:') ? splitPath(props.value.slice(8)) : []}
          onClose={close}
          onChoose={(c) => props.onChange(c.path)}
        />
      )}
    />
  );
}

/** Apolo's ApoloSecret: a secret key, typed or chosen in "Choose a Secret Path". */
export function SecretKeyField(props: TextProps) {
  return (
    <PickerInput
      {...props}
      modal={(opened, close) => (
        <ChooseSecretPathModal
          scope={props.place!}
          opened={opened}
          initialKey={props.value || null}
          onClose={close}
          onApply={(c) => props.onChange(c.key)}
        />
      )}
    />
  );
}
