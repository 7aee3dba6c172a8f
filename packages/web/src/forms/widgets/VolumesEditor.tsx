import type { ProjectPlace } from '@orrery/contract';
import { useState } from 'react';
import {
  ActionIcon,
  Button,
  Group,
  Input,
  Paper,
  Select,
  Stack,
  Text,
  TextInput,
} from '@mantine/core';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import { ChooseDiskModal } from '../../features/disks/ChooseDiskModal';
import { ChooseFilesPathModal } from '../../features/files';
import { ChooseSecretPathModal } from '../../features/secrets';

import type { FormErrors } from '../rules';
import { childPath } from '../schema';
import { FORM_TEXTS as T } from '../texts';
import {
  VOLUME_TYPES,
  newVolume,
  slugName,
  withType,
  type VolumeEntry,
  type VolumeMode,
  type VolumeType,
} from '../volumes';

/**
 * Files, disks and secrets mounted into the job: a new type clears the
 * resource, secrets are read-only, new volumes start read-only. Each type has its chooser.
 */
export function VolumesEditor(props: {
  label: string;
  description?: string;
  path: string;
  errors: FormErrors;
  place: ProjectPlace | null;
  value: VolumeEntry[];
  onChange(value: VolumeEntry[]): void;
}) {
  const { value, onChange, path, errors, place } = props;
  const [choosing, setChoosing] = useState<{ index: number; type: VolumeType } | null>(null);
  const update = (i: number, next: VolumeEntry) =>
    onChange(value.map((v, j) => (j === i ? next : v)));
  const chose = (resource: string, name: string) => {
    if (choosing) update(choosing.index, { ...value[choosing.index], resource, name });
    setChoosing(null);
  };
  const errorOf = (i: number, key: string) => errors[childPath(childPath(path, i), key)];
  return (
    <Input.Wrapper label={props.label} description={props.description}>
      <Stack gap="xs" mt={6}>
        {value.length === 0 && (
          <Text size="sm" c="dimmed">
            {T.volumesEmpty}
          </Text>
        )}
        {value.map((v, i) => (
          <Paper key={i} withBorder p="sm">
            <Stack gap="xs">
              <Group align="flex-end" wrap="nowrap" gap="xs">
                <Select
                  label={T.volumeType}
                  w={130}
                  data={VOLUME_TYPES.map((t) => ({ value: t, label: T.volumeTypes[t] }))}
                  value={v.type}
                  allowDeselect={false}
                  onChange={(t) => t && update(i, withType(v, t as VolumeType))}
                />
                <TextInput
                  label={T.volumeResource}
                  style={{ flex: 1 }}
                  placeholder={T.resourcePlaceholders[v.type]}
                  value={v.resource}
                  error={errorOf(i, 'resource')}
                  onChange={(e) => update(i, { ...v, resource: e.currentTarget.value, name: '' })}
                  rightSectionWidth={place ? 80 : undefined}
                  rightSection={
                    place && (
                      <Button
                        size="compact-sm"
                        variant="light"
                        onClick={() => setChoosing({ index: i, type: v.type })}
                      >
                        {T.choose}
                      </Button>
                    )
                  }
                />
                <ActionIcon
                  variant="subtle"
                  color="gray"
                  size="lg"
                  mb={2}
                  aria-label={`${T.remove} ${i + 1}`}
                  onClick={() => onChange(value.filter((_, j) => j !== i))}
                >
                  <IconTrash size={16} />
                </ActionIcon>
              </Group>
              <Group align="flex-start" wrap="nowrap" gap="xs">
                <TextInput
                  label={T.volumePath}
                  style={{ flex: 1 }}
                  placeholder={T.volumePathPlaceholder}
                  value={v.path}
                  error={errorOf(i, 'path')}
                  onChange={(e) => update(i, { ...v, path: e.currentTarget.value })}
                />
                <Select
                  label={T.volumeMode}
                  w={150}
                  data={(['ro', 'rw'] as const).map((m) => ({ value: m, label: T.volumeModes[m] }))}
                  value={v.mode}
                  disabled={v.type === 'secret'}
                  allowDeselect={false}
                  onChange={(m) => m && update(i, { ...v, mode: m as VolumeMode })}
                />
              </Group>
            </Stack>
          </Paper>
        ))}
        <Group>
          <Button
            variant="default"
            size="xs"
            leftSection={<IconPlus size={14} />}
            onClick={() => onChange([...value, newVolume()])}
          >
            {T.addVolume}
          </Button>
        </Group>
      </Stack>
      {place && (
        <>
          <ChooseFilesPathModal
            place={place}
            opened={choosing?.type === 'storage'}
            onClose={() => setChoosing(null)}
            onChoose={(c) => chose(c.path, slugName(c.segments.at(-1) ?? ''))}
          />
          <ChooseDiskModal
            place={place}
            opened={choosing?.type === 'disk'}
            onClose={() => setChoosing(null)}
            onChoose={(_value, d) => chose(d.uri, d.name ?? d.id)}
          />
          {choosing?.type === 'secret' && (
            <ChooseSecretPathModal
              scope={place}
              opened
              onClose={() => setChoosing(null)}
              onApply={(c) => chose(c.path, c.key)}
            />
          )}
        </>
      )}
    </Input.Wrapper>
  );
}
