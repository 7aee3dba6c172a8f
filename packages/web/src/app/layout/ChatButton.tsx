import { ActionIcon, Drawer, Indicator, Loader, Paper, Stack, Text } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { IconMessageChatbot } from '@tabler/icons-react';
import type { AssistantChat } from './chat';
import { useAssistantChat } from './chat';
import { CHAT_TEXTS } from './texts';

export function ChatPanel({ chat }: { chat: AssistantChat }) {
  if (chat.state === 'loading') return <Loader aria-label={CHAT_TEXTS.loading} />;
  if (chat.state === 'empty') return <Text c="dimmed">{CHAT_TEXTS.empty}</Text>;
  return (
    <Stack gap="xs">
      {chat.messages.map((m) => (
        <Paper key={m.id} p="sm" withBorder bg={m.role === 'user' ? 'gray.0' : undefined}>
          <Text size="sm">{m.text}</Text>
        </Paper>
      ))}
    </Stack>
  );
}

export function ChatButton() {
  const chat = useAssistantChat();
  const [opened, { open, close }] = useDisclosure(false);
  return (
    <>
      <Indicator disabled={chat.unread === 0} color="red" size={8} offset={4}>
        <ActionIcon variant="subtle" size="lg" aria-label={CHAT_TEXTS.open} onClick={open}>
          <IconMessageChatbot size={20} />
        </ActionIcon>
      </Indicator>
      <Drawer opened={opened} onClose={close} position="right" title={CHAT_TEXTS.title}>
        <ChatPanel chat={chat} />
      </Drawer>
    </>
  );
}
