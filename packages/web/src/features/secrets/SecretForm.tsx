import { useState } from 'react';
import { Button, Group, Stack, Textarea, TextInput } from '@mantine/core';
import {
  SecretKey,
  SECRET_VALUE_MAX_BYTES,
  SECRET_VALUE_MESSAGES,
  type ProjectPlace,
} from '@orrery/contract';

import { useCreateSecret } from '../../api/secrets';
import { ApiError } from '../../api/client';
import { messageOf } from '../../ui/errors';
import { notifyError, notifySuccess } from '../../ui/notify';
import { SECRET_TEXTS } from './texts';

/** Spaces are removed from the key as it is typed. */
export const cleanSecretKey = (raw: string) => raw.replace(/\s+/g, '');

export function validateSecretKey(key: string): string | null {
  if (!key) return SECRET_TEXTS.keyRequired;
  const parsed = SecretKey.safeParse(key);
  return parsed.success ? null : (parsed.error.issues[0]?.message ?? null);
}

export function validateSecretValue(value: string): string | null {
  if (!value) return SECRET_TEXTS.valueRequired;
  if (new TextEncoder().encode(value).length > SECRET_VALUE_MAX_BYTES) {
    return SECRET_VALUE_MESSAGES.tooLarge;
  }
  return null;
}

interface Errors {
  key?: string | null;
  value?: string | null;
}

/**
 * Key and value of a new secret; used by the create dialog and inline by the secret picker. It has
 * no `<form>` element of its own, so it can sit inside the forms of apps and jobs.
 */
export function SecretForm({
  scope,
  onCreated,
  onCancel,
}: {
  scope: ProjectPlace;
  onCreated: (key: string) => void;
  onCancel?: () => void;
}) {
  const [key, setKey] = useState('');
  const [value, setValue] = useState('');
  const [errors, setErrors] = useState<Errors>({});
  const create = useCreateSecret();

  const submit = async () => {
    const found = { key: validateSecretKey(key), value: validateSecretValue(value) };
    setErrors(found);
    if (found.key || found.value) return;
    let created: string;
    try {
      created = (await create.mutateAsync({ scope, key, value })).key;
    } catch (error) {
      const fields = error instanceof ApiError ? error.fieldErrors : [];
      const onField = fields.filter((f) => f.path === 'key' || f.path === 'value');
      if (onField.length > 0) {
        setErrors(Object.fromEntries(onField.reverse().map((f) => [f.path, f.message])));
      } else notifyError(messageOf(error, SECRET_TEXTS.somethingWentWrong));
      return;
    }
    notifySuccess(SECRET_TEXTS.created);
    setKey('');
    setValue('');
    onCreated(created);
  };

  return (
    <Stack>
      <TextInput
        label={SECRET_TEXTS.keyLabel}
        placeholder={SECRET_TEXTS.keyPlaceholder}
        description={SECRET_TEXTS.keyHint}
        required
        value={key}
        error={errors.key}
        autoComplete="off"
        onChange={(e) => {
          setKey(cleanSecretKey(e.currentTarget.value));
          setErrors((prev) => ({ ...prev, key: null }));
        }}
      />
      <Textarea
        label={SECRET_TEXTS.valueLabel}
        required
        rows={4}
        value={value}
        error={errors.value}
        autoComplete="off"
        spellCheck={false}
        styles={{ input: { fontFamily: 'monospace' } }}
        onChange={(e) => {
          setValue(e.currentTarget.value);
          setErrors((prev) => ({ ...prev, value: null }));
        }}
      />
      <Group justify="flex-end">
        {onCancel && (
          <Button variant="default" onClick={onCancel}>
            {SECRET_TEXTS.cancel}
          </Button>
        )}
        <Button loading={create.isPending} onClick={() => void submit()}>
          {SECRET_TEXTS.create}
        </Button>
      </Group>
    </Stack>
  );
}
