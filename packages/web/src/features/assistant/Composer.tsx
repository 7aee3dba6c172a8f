import { useState } from 'react';
import { ActionIcon, Group, Stack, Text, Textarea } from '@mantine/core';
import { IconSend } from '@tabler/icons-react';
import { COPILOT_MAX_MESSAGE } from '@orrery/contract';
import { ASSISTANT_TEXTS as T } from './texts';

/** The counter appears once a message passes this many characters. */
export const COUNTER_AFTER = 100;

/**
 * The message box: at most 1000 characters, Enter sends, Shift+Enter
 * breaks the line, an empty or blank message cannot be sent.
 */
export function Composer({ onSend }: { onSend: (text: string) => boolean }) {
  const [text, setText] = useState('');
  const blank = text.trim() === '';
  const submit = () => {
    if (!blank && onSend(text)) setText('');
  };
  return (
    <Stack gap={2}>
      <Group gap="xs" align="flex-end" wrap="nowrap">
        <Textarea
          style={{ flex: 1 }}
          aria-label={T.placeholder}
          placeholder={T.placeholder}
          autosize
          minRows={1}
          maxRows={6}
          maxLength={COPILOT_MAX_MESSAGE}
          value={text}
          onChange={(e) => setText(e.currentTarget.value)}
          onKeyDown={(e) => {
            if (e.key !== 'Enter' || e.shiftKey || e.nativeEvent.isComposing) return;
            e.preventDefault();
            submit();
          }}
        />
        <ActionIcon size="lg" aria-label={T.send} disabled={blank} onClick={submit}>
          <IconSend size={18} />
        </ActionIcon>
      </Group>
      {text.length > COUNTER_AFTER && (
        <Text
          size="xs"
          ta="right"
          c={text.length >= COPILOT_MAX_MESSAGE ? 'red' : 'dimmed'}
          aria-live="polite"
        >
          {T.counter(text.length)}
        </Text>
      )}
    </Stack>
  );
}
