import {
  ActionIcon,
  Badge,
  Button,
  Drawer,
  Group,
  ScrollArea,
  Stack,
  Text,
  Tooltip,
} from '@mantine/core';
import { useHotkeys, type HotkeyItem } from '@mantine/hooks';
import { IconArrowsMaximize, IconArrowsMinimize, IconTrash } from '@tabler/icons-react';
import type { ConnectionState } from './connection';
import { Composer } from './Composer';
import { Messages } from './Messages';
import { SettingsPopover } from './SettingsPopover';
import type { CopilotSettings } from './settings';
import { ASSISTANT_TEXTS as T, CONNECTION_TEXTS } from './texts';
import type { Copilot } from './useCopilot';
import './styles';

/** The side panel's width. */
export const PANEL_WIDTH = 380;

const CONNECTION_COLORS: Record<ConnectionState, string> = {
  connecting: 'yellow',
  open: 'green',
  closing: 'yellow',
  closed: 'gray',
  error: 'red',
};

function Suggestions({ onPick }: { onPick: (q: string) => void }) {
  return (
    <Stack gap="xs">
      <Text size="sm" c="dimmed">
        {T.emptyIntro}
      </Text>
      {T.suggestions.map((q) => (
        <Button
          key={q}
          variant="light"
          size="compact-sm"
          justify="flex-start"
          styles={{ label: { whiteSpace: 'normal', textAlign: 'left', lineHeight: 1.35 } }}
          h="auto"
          py={6}
          onClick={() => onPick(q)}
        >
          {q}
        </Button>
      ))}
    </Stack>
  );
}

/**
 * The assistant's side panel: 380 px, or the whole window with
 * Ctrl/Cmd+Shift+F; Escape leaves fullscreen. Escape never closes it, so leaving a popover or
 * fullscreen cannot lose the panel. It is not modal: the console stays usable beside it, so a
 * cited resource can be opened while reading the answer.
 */
export function ChatPanel(props: {
  opened: boolean;
  onClose: () => void;
  fullscreen: boolean;
  setFullscreen: (on: boolean) => void;
  copilot: Copilot;
  settings: CopilotSettings;
  onSettings: (change: Partial<CopilotSettings>) => void;
}) {
  const { opened, onClose, fullscreen, setFullscreen, copilot, settings, onSettings } = props;
  // Both keys work while typing in the message box, which is where the user's focus is.
  const hotkeys: HotkeyItem[] = [];
  if (opened) hotkeys.push(['mod+shift+F', () => setFullscreen(!fullscreen)]);
  if (opened && fullscreen) hotkeys.push(['Escape', () => setFullscreen(false)]);
  useHotkeys(hotkeys, []);
  const empty = copilot.messages.length === 0;
  return (
    <Drawer.Root
      opened={opened}
      onClose={onClose}
      position="right"
      size={fullscreen ? '100%' : PANEL_WIDTH}
      closeOnEscape={false}
      closeOnClickOutside={false}
      trapFocus={false}
      lockScroll={false}
    >
      <Drawer.Content>
        <Stack h="100%" gap={0}>
          <Drawer.Header>
            <Group gap="xs" wrap="nowrap">
              <Drawer.Title fw={600}>{T.title}</Drawer.Title>
              <Badge
                size="xs"
                variant="dot"
                color={CONNECTION_COLORS[copilot.connection]}
                role="status"
                aria-label={CONNECTION_TEXTS[copilot.connection]}
              >
                {CONNECTION_TEXTS[copilot.connection]}
              </Badge>
            </Group>
            <Group gap={4} wrap="nowrap">
              <SettingsPopover settings={settings} onChange={onSettings} />
              <Tooltip label={T.clear}>
                <ActionIcon
                  variant="subtle"
                  color="gray"
                  aria-label={T.clear}
                  disabled={empty}
                  onClick={copilot.clear}
                >
                  <IconTrash size={18} />
                </ActionIcon>
              </Tooltip>
              <Tooltip label={fullscreen ? T.leaveFullscreen : T.fullscreen}>
                <ActionIcon
                  variant="subtle"
                  color="gray"
                  aria-label={fullscreen ? T.leaveFullscreen : T.fullscreen}
                  onClick={() => setFullscreen(!fullscreen)}
                >
                  {fullscreen ? <IconArrowsMinimize size={18} /> : <IconArrowsMaximize size={18} />}
                </ActionIcon>
              </Tooltip>
              <Drawer.CloseButton aria-label={T.close} />
            </Group>
          </Drawer.Header>
          <ScrollArea style={{ flex: 1 }} px="md" type="auto" scrollbars="y">
            <Stack maw={fullscreen ? 860 : undefined} mx="auto" py="xs">
              {empty ? (
                <Suggestions onPick={(q) => copilot.send(q)} />
              ) : (
                <Messages
                  messages={copilot.messages}
                  waiting={copilot.waiting}
                  progress={copilot.progress}
                  connection={copilot.connection}
                  onResend={copilot.resend}
                />
              )}
            </Stack>
          </ScrollArea>
          <Stack p="md" pt="xs" maw={fullscreen ? 860 : undefined} w="100%" mx="auto">
            <Composer onSend={copilot.send} />
          </Stack>
        </Stack>
      </Drawer.Content>
    </Drawer.Root>
  );
}
