import { useEffect, useRef } from 'react';
import { Alert, Button, Group, Loader, Paper, Stack, Text } from '@mantine/core';
import { IconRefresh } from '@tabler/icons-react';
import type { ConnectionState } from './connection';
import { Answer } from './Answer';
import { PlanCard } from './PlanCard';
import type { ChatMessage } from './useCopilot';
import { ASSISTANT_TEXTS as T } from './texts';

/** Resend on an errored message, or on the last user message while disconnected. */
export function canResend(message: ChatMessage, all: ChatMessage[], connection: ConnectionState) {
  if (message.role !== 'user') return false;
  if (message.status === 'error') return true;
  const down = connection === 'closed' || connection === 'error';
  return down && all.filter((m) => m.role === 'user').at(-1)?.id === message.id;
}

function UserMessage(props: { message: ChatMessage; resendable: boolean; onResend: () => void }) {
  const { message, resendable, onResend } = props;
  return (
    <Stack gap={2} align="flex-end">
      <Paper
        p="xs"
        radius="md"
        bg="var(--mantine-color-blue-light)"
        maw="90%"
        data-status={message.status}
      >
        <Text size="sm" style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word' }}>
          {message.content}
        </Text>
      </Paper>
      <Group gap={6}>
        {message.status === 'sending' && (
          <Text size="xs" c="dimmed">
            {T.sending}
          </Text>
        )}
        {message.status === 'error' && (
          <Text size="xs" c="red">
            {T.failed}
          </Text>
        )}
        {resendable && (
          <Button
            size="compact-xs"
            variant="subtle"
            leftSection={<IconRefresh size={12} />}
            onClick={onResend}
          >
            {T.resend}
          </Button>
        )}
      </Group>
    </Stack>
  );
}

function AssistantMessage({ message }: { message: ChatMessage }) {
  if (message.status === 'error') {
    return (
      <Alert color="red" p="xs" data-status="error" role="alert">
        <Text size="sm">{message.content}</Text>
      </Alert>
    );
  }
  return (
    <Stack gap="xs" data-status={message.status}>
      {message.answer ? (
        <Answer answer={message.answer} />
      ) : (
        <Text size="sm">{message.content}</Text>
      )}
      {message.answer?.plans.map((plan) => (
        <PlanCard key={plan.id} plan={plan} />
      ))}
    </Stack>
  );
}

export function Messages(props: {
  messages: ChatMessage[];
  waiting: boolean;
  progress: string | null;
  connection: ConnectionState;
  onResend: (id: string) => void;
}) {
  const { messages, waiting, progress, connection, onResend } = props;
  const end = useRef<HTMLDivElement>(null);
  // A block body: Chromium's scrollIntoView returns a promise, which React would take for cleanup.
  useEffect(() => {
    end.current?.scrollIntoView({ block: 'end' });
  }, [messages.length, waiting]);
  return (
    <Stack gap="md" role="log" aria-label={T.title}>
      {messages.map((m) =>
        m.role === 'user' ? (
          <UserMessage
            key={m.id}
            message={m}
            resendable={canResend(m, messages, connection)}
            onResend={() => onResend(m.id)}
          />
        ) : (
          <AssistantMessage key={m.id} message={m} />
        ),
      )}
      {waiting && (
        <Group gap="xs" role="status">
          <Loader size="xs" type="dots" />
          <Text size="xs" c="dimmed">
            {progress ?? T.thinking}
          </Text>
        </Group>
      )}
      <div ref={end} />
    </Stack>
  );
}
