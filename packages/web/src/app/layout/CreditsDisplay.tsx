import { Group, Text, Tooltip } from '@mantine/core';
import { IconAlertTriangle, IconCoins } from '@tabler/icons-react';
import { LAYOUT_TEXTS } from './texts';

export type CreditsView =
  { kind: 'unlimited' } | { kind: 'value'; text: string } | { kind: 'unparseable' };

/** Balances are decimal strings on the wire; null means unlimited. */
export function creditsView(credits: string | null): CreditsView {
  if (credits === null) return { kind: 'unlimited' };
  const value = Number(credits);
  if (!credits.trim() || !Number.isFinite(value)) return { kind: 'unparseable' };
  return {
    kind: 'value',
    text: value.toLocaleString('en-US', { maximumFractionDigits: 2 }),
  };
}

export function CreditsDisplay({ credits }: { credits: string | null }) {
  const view = creditsView(credits);
  if (view.kind === 'unparseable') {
    return (
      <Group gap={4} c="red" wrap="nowrap">
        <IconAlertTriangle size={16} aria-hidden />
        <Text size="sm">{LAYOUT_TEXTS.creditsUnparseable}</Text>
      </Group>
    );
  }
  return (
    <Tooltip label={LAYOUT_TEXTS.credits}>
      <Group gap={4} wrap="nowrap" aria-label={LAYOUT_TEXTS.credits}>
        <IconCoins size={16} aria-hidden />
        <Text size="sm" fw={500}>
          {view.kind === 'unlimited' ? LAYOUT_TEXTS.unlimited : view.text}
        </Text>
      </Group>
    </Tooltip>
  );
}
