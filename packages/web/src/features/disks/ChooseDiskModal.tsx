import type { ProjectPlace } from '@orrery/contract';
import { useState } from 'react';
import { Button, Group, Loader, Modal, Stack } from '@mantine/core';
import { DataTable } from '../../ui/DataTable';
import { useDisks, type Disk } from '../../api/disks';
import { EmptyState } from '../../ui/EmptyState';
import { usageOf } from './format';
import { DISK_TEXTS } from './texts';

const T = DISK_TEXTS.chooser;

/**
 * The value a form stores for a disk volume: `disk:NAME` for a named disk (resolved in the
 * current project, as the CLI does), else the disk's full URI.
 */
export const diskVolumeValue = (d: Disk) => (d.name ? `disk:${d.name}` : d.uri);

/**
 * "Choose a Disks Path": pick one disk of the project. One click
 * selects, a double click chooses at once.
 */
export function ChooseDiskModal(props: {
  place: ProjectPlace;
  opened: boolean;
  onClose(): void;
  onChoose(value: string, disk: Disk): void;
}) {
  const disks = useDisks(props.opened ? props.place : null);
  const [selected, setSelected] = useState<Disk | null>(null);
  const choose = (d: Disk | null) => {
    if (!d) return;
    props.onChoose(diskVolumeValue(d), d);
    setSelected(null);
    props.onClose();
  };
  const list = disks.data ?? [];
  return (
    <Modal opened={props.opened} onClose={props.onClose} title={T.title} size={640} centered>
      <Stack>
        {disks.isPending && props.opened ? (
          <Loader aria-label={T.title} />
        ) : list.length === 0 ? (
          <EmptyState title={DISK_TEXTS.empty} />
        ) : (
          <DataTable
            headless
            table={{ highlightOnHover: true }}
            rows={list}
            rowKey={(d) => d.id}
            onRowClick={(d) => setSelected(d)}
            selected={(d) => selected?.id === d.id}
            rowProps={(d) => ({
              'aria-selected': selected?.id === d.id,
              onDoubleClick: () => choose(d),
            })}
            columns={[{ cell: (d) => d.name ?? d.id }, { cell: usageOf }]}
          />
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={props.onClose}>
            {T.cancel}
          </Button>
          <Button disabled={!selected} onClick={() => choose(selected)}>
            {T.select}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
