import { Loader, TextInput } from '@mantine/core';
import type { useNameField } from './useNameField';

interface NameInputProps {
  field: ReturnType<typeof useNameField>;
  label: string;
  placeholder: string;
  hint: string;
  normalizedHint: (name: string) => string;
}

export function NameInput({ field, label, placeholder, hint, normalizedHint }: NameInputProps) {
  const showNormalized = field.normalized && field.normalized !== field.value;
  return (
    <TextInput
      label={label}
      placeholder={placeholder}
      required
      data-autofocus
      value={field.value}
      onChange={(e) => field.onChange(e.currentTarget.value)}
      onBlur={field.touch}
      error={field.error}
      description={showNormalized ? normalizedHint(field.normalized as string) : hint}
      rightSection={field.checking ? <Loader size="xs" aria-label="Checking name" /> : null}
    />
  );
}
