import { ActionIcon, Group, Paper, Progress, Stack, Text } from '@mantine/core';
import { IconX } from '@tabler/icons-react';
import { formatSize } from '../../ui/sizes';
import { FILE_TEXTS } from './texts';
import type { Upload } from './useUploads';

const T = FILE_TEXTS.uploads;
const COLOR = { uploading: undefined, done: 'green', cancelled: 'gray', failed: 'red' } as const;

// A small file finishes before any progress event: done is a full bar whatever was counted.
const percentOf = (u: Upload) =>
  u.status === 'done'
    ? 100
    : u.total > 0
      ? Math.min(100, Math.round((u.loaded / u.total) * 100))
      : 0;

function statusText(u: Upload) {
  if (u.status === 'uploading') return `${formatSize(u.loaded)} / ${formatSize(u.total)}`;
  if (u.status === 'done') return T.done;
  if (u.status === 'cancelled') return T.cancelled;
  return u.error ?? T.failed;
}

/** One progress bar per uploaded file, each with its own cancel (or dismiss once finished). */
export function UploadList(props: {
  uploads: Upload[];
  onCancel(id: number): void;
  onDismiss(id: number): void;
}) {
  if (props.uploads.length === 0) return null;
  return (
    <Paper withBorder shadow="md" p="sm" aria-label={T.label} role="region">
      <Stack gap="xs">
        {props.uploads.map((u) => {
          const busy = u.status === 'uploading';
          return (
            <Group key={u.id} gap="sm" wrap="nowrap">
              <Stack gap={2} style={{ flex: 1, minWidth: 0 }}>
                <Group justify="space-between" wrap="nowrap">
                  <Text size="sm" truncate>
                    {u.name}
                  </Text>
                  <Text size="xs" c={u.status === 'failed' ? 'red' : 'dimmed'}>
                    {statusText(u)}
                  </Text>
                </Group>
                <Progress
                  value={percentOf(u)}
                  color={COLOR[u.status]}
                  animated={busy}
                  aria-label={u.name}
                />
              </Stack>
              <ActionIcon
                variant="subtle"
                color="gray"
                aria-label={busy ? T.cancel(u.name) : T.dismiss(u.name)}
                onClick={() => (busy ? props.onCancel(u.id) : props.onDismiss(u.id))}
              >
                <IconX size={16} />
              </ActionIcon>
            </Group>
          );
        })}
      </Stack>
    </Paper>
  );
}
