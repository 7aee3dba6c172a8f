import { useState } from 'react';
import { Button, Group, Stack, TextInput, Title } from '@mantine/core';
import { DiskPriceCredits } from '@orrery/contract';
import { useDiskPrice, useSetDiskPrice } from '../../api/admin';
import { fieldErrorOf } from '../../ui/errors';
import { useLocalIssues } from '../../ui/issues';
import { withOutcome } from '../../ui/notify';
import { ADMIN_UI } from './texts';

const O = ADMIN_UI.orgs;

/** The cluster's price of disks, beside its storage volumes' prices. */
export function DiskPrice({ cluster }: { cluster: string }) {
  const price = useDiskPrice(cluster);
  const set = useSetDiskPrice(cluster);
  const [value, setValue] = useState<string | null>(null);
  const shown = value ?? price.data?.creditsPerDayPerGb ?? '';
  const check = useLocalIssues(DiskPriceCredits, { credits_per_day_per_gb: shown });
  return (
    <Stack gap="xs">
      <Title order={4}>{O.disks}</Title>
      <Group align="flex-end">
        <TextInput
          label={O.diskCredits}
          description={O.diskCreditsHint}
          inputMode="decimal"
          value={shown}
          disabled={!price.data}
          onChange={(e) => setValue(e.currentTarget.value)}
          error={
            check.shown('credits_per_day_per_gb') ??
            fieldErrorOf(set.error, 'credits_per_day_per_gb')
          }
        />
        <Button
          variant="default"
          aria-label={O.saveDiskPrice}
          disabled={!price.data}
          loading={set.isPending}
          onClick={() =>
            check.sendable() &&
            withOutcome(() => set.mutateAsync(shown), O.diskCreditsUpdated, ADMIN_UI.loadFailed)
          }
        >
          {ADMIN_UI.save}
        </Button>
      </Group>
    </Stack>
  );
}
