import { Text } from '@mantine/core';
import { COST_TEXTS, diskCreditsPerDay, perDay } from './cost';

/** A disk's credits per day: its size at the cluster's price per GB-day; "Free" at price 0. */
export function DiskCost(props: { bytes: number; pricePerGbDay: string }) {
  const day = diskCreditsPerDay(props.bytes, props.pricePerGbDay);
  if (day === null) return null;
  return (
    <Text size="sm" c={day === 0 ? 'dimmed' : undefined}>
      {day === 0 ? COST_TEXTS.free : perDay(day)}
    </Text>
  );
}
