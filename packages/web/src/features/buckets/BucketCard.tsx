import { Group, Paper, Stack, Text, UnstyledButton } from '@mantine/core';
import type { Bucket } from '../../api/buckets';
import { bucketLabel } from './format';
import { ProviderLogo } from './ProviderLogo';
import { BUCKET_TEXTS } from './texts';

/** One bucket of the list; clicks are counted by the caller (files' useClickCount). */
export function BucketCard(props: { bucket: Bucket; selected: boolean; onClick(): void }) {
  const { bucket, selected } = props;
  const label = bucketLabel(bucket);
  return (
    <UnstyledButton
      onClick={props.onClick}
      aria-pressed={selected}
      aria-label={BUCKET_TEXTS.openLabel(label)}
      title={label}
    >
      <Paper
        withBorder
        p="sm"
        radius="md"
        bg={selected ? 'var(--mantine-primary-color-light)' : undefined}
        style={{ borderColor: selected ? 'var(--mantine-primary-color-filled)' : undefined }}
      >
        <Group gap="sm" wrap="nowrap">
          <ProviderLogo provider={bucket.provider} />
          <Stack gap={0} style={{ minWidth: 0 }}>
            <Text size="sm" fw={500} truncate>
              {label}
            </Text>
            <Text size="xs" c="dimmed" truncate>
              {BUCKET_TEXTS.providers[bucket.provider]}
            </Text>
          </Stack>
        </Group>
      </Paper>
    </UnstyledButton>
  );
}
