import { lazy, Suspense, useEffect, useState } from 'react';
import { ActionIcon, Indicator, Loader } from '@mantine/core';
import { IconMessageChatbot } from '@tabler/icons-react';
import { useCopilotSettings } from './settings';
import { ASSISTANT_TEXTS as T } from './texts';
import { useCopilot, type IndicatorState } from './useCopilot';

// The panel (Markdown rendering and all) loads on first open, not with every page of the console.
const ChatPanel = lazy(() => import('./ChatPanel').then((m) => ({ default: m.ChatPanel })));

const LABELS: Record<IndicatorState, string> = {
  empty: T.open,
  loading: T.openAnswering,
  loaded: T.openUnread,
};

/**
 * The top bar's chat button: its indicator spins while an answer is awaited and
 * shows a dot when one arrived with the panel closed, until the panel is opened. The conversation
 * lives here, in the always-mounted top bar, so closing the panel keeps it.
 */
export function ChatButton() {
  const [opened, setOpened] = useState(false);
  const [fullscreen, setFullscreen] = useState(false);
  const [settings, updateSettings] = useCopilotSettings();
  const copilot = useCopilot(settings, opened);
  const { start, markSeen } = copilot;
  useEffect(() => {
    if (!opened) return;
    start();
    markSeen();
  }, [opened, start, markSeen, copilot.indicator]);

  const indicator = copilot.indicator;
  return (
    <>
      <Indicator
        disabled={indicator === 'empty'}
        color={indicator === 'loading' ? 'transparent' : 'red'}
        size={indicator === 'loading' ? 14 : 8}
        offset={4}
        label={indicator === 'loading' ? <Loader size={10} color="blue" /> : undefined}
      >
        <ActionIcon
          variant="subtle"
          size="lg"
          aria-label={LABELS[indicator]}
          aria-expanded={opened}
          onClick={() => setOpened((o) => !o)}
        >
          <IconMessageChatbot size={20} />
        </ActionIcon>
      </Indicator>
      {copilot.started && (
        <Suspense fallback={null}>
          <ChatPanel
            opened={opened}
            onClose={() => {
              setOpened(false);
              setFullscreen(false);
            }}
            fullscreen={fullscreen}
            setFullscreen={setFullscreen}
            copilot={copilot}
            settings={settings}
            onSettings={updateSettings}
          />
        </Suspense>
      )}
    </>
  );
}
