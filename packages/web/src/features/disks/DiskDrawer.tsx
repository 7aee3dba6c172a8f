import { Badge, Code, Drawer, Stack } from '@mantine/core';
import { DetailsTable } from '../../ui/DetailsTable';
import type { ReactNode } from 'react';
import type { Disk } from '../../api/disks';
import { formatLifespan } from '../../ui/lifespan';
import { formatSize } from '../../ui/sizes';
import { diskLabel, formatDate, STATUS_COLOR } from './format';
import { DISK_TEXTS } from './texts';

const T = DISK_TEXTS.drawer;

/** The drawer: ID, URI, status, owner, storage, lifespan, created. */
export function DiskDrawer({ disk, onClose }: { disk: Disk | null; onClose(): void }) {
  const rows: [string, ReactNode][] = disk
    ? [
        [T.id, <Code key="id">{disk.id}</Code>],
        [T.uri, <Code key="uri">{disk.uri}</Code>],
        [
          T.status,
          <Badge key="status" color={STATUS_COLOR[disk.status]} variant="light">
            {disk.status}
          </Badge>,
        ],
        [T.owner, disk.owner],
        [T.storage, formatSize(disk.storage)],
        [T.used, disk.usedBytes === null ? DISK_TEXTS.unknownUsage : formatSize(disk.usedBytes)],
        [T.lifespan, disk.lifeSpan === null ? T.noLifespan : formatLifespan(disk.lifeSpan)],
        [T.lastUsage, disk.lastUsage ? formatDate(disk.lastUsage) : T.never],
        [T.created, formatDate(disk.createdAt)],
      ]
    : [];
  return (
    <Drawer opened={!!disk} onClose={onClose} position="right" title={disk ? diskLabel(disk) : ''}>
      <Stack>
        <DetailsTable rows={rows} />
      </Stack>
    </Drawer>
  );
}
