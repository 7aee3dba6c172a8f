import { Stack, Text } from '@mantine/core';
import type { Job } from '../../../api/jobs';
import { credits, perHour } from './cost';

/**
 * What a job has cost so far and, while it runs or waits to, its rate: the server's figures
 * (`total_price_credits`, `price_credits_per_hour`), which grow with every charge (each minute).
 */
export function JobCost({ job }: { job: Job }) {
  const active = job.status === 'pending' || job.status === 'running';
  return (
    <Stack gap={0}>
      <Text size="sm">{credits(job.totalPriceCredits)}</Text>
      {active && (
        <Text size="xs" c="dimmed">
          {perHour(job.priceCreditsPerHour)}
        </Text>
      )}
    </Stack>
  );
}
