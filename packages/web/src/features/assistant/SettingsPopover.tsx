import { ActionIcon, NumberInput, Popover, SegmentedControl, Stack, Text } from '@mantine/core';
import { IconAdjustments } from '@tabler/icons-react';
import {
  COPILOT_MAX_ITERATIONS,
  COPILOT_MIN_ITERATIONS,
  COPILOT_MODES,
  type CopilotMode,
} from '@orrery/contract';
import type { CopilotSettings } from './settings';
import { ASSISTANT_TEXTS as T } from './texts';

/** Copilot settings: the retrieval mode and how many rounds it may expand. */
export function SettingsPopover({
  settings,
  onChange,
}: {
  settings: CopilotSettings;
  onChange: (change: Partial<CopilotSettings>) => void;
}) {
  return (
    <Popover position="bottom-end" width={280} withArrow shadow="md">
      <Popover.Target>
        <ActionIcon variant="subtle" color="gray" aria-label={T.settings}>
          <IconAdjustments size={18} />
        </ActionIcon>
      </Popover.Target>
      <Popover.Dropdown>
        <Stack gap="sm">
          <Stack gap={4}>
            <Text size="sm" fw={500} id="copilot-mode">
              {T.mode}
            </Text>
            <SegmentedControl
              aria-labelledby="copilot-mode"
              size="xs"
              fullWidth
              data={COPILOT_MODES.map((m) => ({ value: m, label: m }))}
              value={settings.mode}
              onChange={(mode) => onChange({ mode: mode as CopilotMode })}
            />
            <Text size="xs" c="dimmed">
              {T.modeHelp[settings.mode]}
            </Text>
          </Stack>
          <NumberInput
            label={T.maxIterations}
            size="xs"
            min={COPILOT_MIN_ITERATIONS}
            max={COPILOT_MAX_ITERATIONS}
            step={1}
            allowDecimal={false}
            allowNegative={false}
            clampBehavior="strict"
            value={settings.maxIterations}
            onChange={(v) => {
              if (typeof v === 'number' && v >= COPILOT_MIN_ITERATIONS)
                onChange({ maxIterations: v });
            }}
          />
        </Stack>
      </Popover.Dropdown>
    </Popover>
  );
}
