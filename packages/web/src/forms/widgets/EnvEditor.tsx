import type { ProjectPlace } from '@orrery/contract';
import { useState } from 'react';
import { ActionIcon, Button, Group, Input, Stack, Text, TextInput } from '@mantine/core';
import { IconKey, IconPencil, IconPlus, IconTrash } from '@tabler/icons-react';
import { AddEnvSecretModal } from '../../features/secrets';
import type { EnvEntry } from '../env';

import type { FormErrors } from '../rules';
import { childPath } from '../schema';
import { FORM_TEXTS as T } from '../texts';
import { EnvVariableModal } from './EnvVariableModal';

/**
 * Environment variables and secret environment variables: name and
 * value at least one character. A variable is added or edited in "The Environment Variable"
 * modal and stays editable in the list; a secret comes from the "Add Environment Secret" modal,
 * which chooses an existing secret or creates one (creation forced when there is none).
 */
export function EnvEditor(props: {
  label: string;
  description?: string;
  path: string;
  errors: FormErrors;
  place: ProjectPlace | null;
  /** Whether "Add secret" is offered (default: in a project). */
  secrets?: boolean;
  value: EnvEntry[];
  onChange(value: EnvEntry[]): void;
}) {
  const { value, onChange, path, errors } = props;
  const place = props.secrets === false ? null : props.place;
  const [addingSecret, setAddingSecret] = useState(false);
  // The variable the modal edits: its index, 'new' for Add variable, null when closed.
  const [editing, setEditing] = useState<number | 'new' | null>(null);
  const update = (i: number, patch: Partial<EnvEntry>) =>
    onChange(value.map((e, j) => (j === i ? { ...e, ...patch } : e)));
  const errorOf = (i: number, key: keyof EnvEntry) => errors[childPath(childPath(path, i), key)];
  return (
    <Input.Wrapper label={props.label} description={props.description}>
      <Stack gap="xs" mt={6}>
        {value.length === 0 && (
          <Text size="sm" c="dimmed">
            {T.envEmpty}
          </Text>
        )}
        {value.map((e, i) => (
          <Group key={i} align="flex-start" wrap="nowrap" gap="xs">
            <TextInput
              aria-label={`${T.envName} ${i + 1}`}
              placeholder={T.envName}
              style={{ flex: 1 }}
              value={e.name}
              error={errorOf(i, 'name')}
              onChange={(ev) => update(i, { name: ev.currentTarget.value })}
            />
            <TextInput
              aria-label={`${e.type === 'secret' ? T.envSecret : T.envValue} ${i + 1}`}
              placeholder={T.envValue}
              style={{ flex: 1 }}
              value={e.value}
              readOnly={e.type === 'secret'}
              leftSection={e.type === 'secret' ? <IconKey size={14} /> : undefined}
              error={errorOf(i, 'value')}
              onChange={(ev) => update(i, { value: ev.currentTarget.value })}
            />
            {e.type === 'variable' && (
              <ActionIcon
                variant="subtle"
                color="gray"
                size="lg"
                aria-label={`${T.edit} ${e.name || i + 1}`}
                onClick={() => setEditing(i)}
              >
                <IconPencil size={16} />
              </ActionIcon>
            )}
            <ActionIcon
              variant="subtle"
              color="gray"
              size="lg"
              aria-label={`${T.remove} ${e.name || i + 1}`}
              onClick={() => onChange(value.filter((_, j) => j !== i))}
            >
              <IconTrash size={16} />
            </ActionIcon>
          </Group>
        ))}
        <Group gap="xs">
          <Button
            variant="default"
            size="xs"
            leftSection={<IconPlus size={14} />}
            onClick={() => setEditing('new')}
          >
            {T.addVariable}
          </Button>
          {place && (
            <Button
              variant="default"
              size="xs"
              leftSection={<IconKey size={14} />}
              onClick={() => setAddingSecret(true)}
            >
              {T.addSecret}
            </Button>
          )}
        </Group>
      </Stack>
      <EnvVariableModal
        opened={editing !== null}
        initial={typeof editing === 'number' ? value[editing] : undefined}
        onClose={() => setEditing(null)}
        onSave={(v) =>
          typeof editing === 'number'
            ? update(editing, v)
            : onChange([...value, { ...v, type: 'variable' }])
        }
      />
      {place && (
        <AddEnvSecretModal
          scope={place}
          opened={addingSecret}
          onClose={() => setAddingSecret(false)}
          onAdd={(s) => onChange([...value, { name: s.name, value: s.path, type: 'secret' }])}
        />
      )}
    </Input.Wrapper>
  );
}
