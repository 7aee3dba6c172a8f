import { useState } from 'react';
import { TextInput } from '@mantine/core';
import { FORM_TEXTS } from '../texts';
import { parseTags } from '../values';

/** Tags typed as one line separated by commas; tidied when the input is left. */
export function TagsField(props: {
  label: string;
  description?: string;
  required: boolean;
  error?: string;
  value: string[];
  onChange(tags: string[]): void;
}) {
  const { value, onChange, required, ...rest } = props;
  const [text, setText] = useState(value.join(', '));
  const display = parseTags(text).join(',') === value.join(',') ? text : value.join(', ');
  return (
    <TextInput
      {...rest}
      withAsterisk={required}
      placeholder={FORM_TEXTS.tagsPlaceholder}
      value={display}
      onChange={(e) => {
        setText(e.currentTarget.value);
        onChange(parseTags(e.currentTarget.value));
      }}
      onBlur={() => setText(value.join(', '))}
    />
  );
}
