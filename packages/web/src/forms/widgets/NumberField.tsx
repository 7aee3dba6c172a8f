import { useState } from 'react';
import { TextInput } from '@mantine/core';
import { parseNumberInput } from '../values';

/**
 * A number typed as text: a decimal comma is accepted, decimals are cut to two,
 * empty means "not set". The text stays as typed so "1," does not jump back to "1".
 */
export function NumberField(props: {
  label: string;
  description?: string;
  required: boolean;
  error?: string;
  integer: boolean;
  value: number | undefined;
  onChange(value: number | undefined): void;
}) {
  const { value, onChange, integer, required, ...rest } = props;
  const shown = value === undefined || Number.isNaN(value) ? '' : String(value);
  const [text, setText] = useState(shown);
  // The value changed from outside (a reset, a default): show it instead of the stale text.
  const parsed = parseNumberInput(text);
  const display = parsed === value || (Number.isNaN(parsed) && Number.isNaN(value)) ? text : shown;
  return (
    <TextInput
      {...rest}
      withAsterisk={required}
      inputMode={integer ? 'numeric' : 'decimal'}
      value={display}
      onChange={(e) => {
        const next = e.currentTarget.value;
        setText(next);
        onChange(parseNumberInput(next));
      }}
    />
  );
}
