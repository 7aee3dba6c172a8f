import type { ProjectPlace } from '@orrery/contract';
import { Paper, Stack, TextInput } from '@mantine/core';

import { usePlatformContext } from '../../../app/context/platform-context';
import { SchemaFields, type SchemaForm } from '../../../forms';
import { APPS_TEXTS } from '../texts';

/** The app's display name and its template's inputs: the body of Install and of Configure. */
export function AppFormPanel(props: {
  form: SchemaForm;
  place: ProjectPlace;
  displayName: string;
  onDisplayName: (name: string) => void;
  displayNameHint?: string;
  readOnly?: boolean;
}) {
  const { cluster } = usePlatformContext();
  return (
    <Paper withBorder p="lg">
      <Stack gap="md">
        <TextInput
          label={APPS_TEXTS.install.displayName}
          description={props.displayNameHint}
          value={props.displayName}
          onChange={(e) => props.onDisplayName(e.currentTarget.value)}
          disabled={props.readOnly}
        />
        <SchemaFields
          form={props.form}
          env={{
            place: props.place,
            presets: cluster?.details?.resourcePresets ?? [],
            subject: 'app',
          }}
        />
      </Stack>
    </Paper>
  );
}
