import { DeleteAction, EditAction } from '../../ui/RowActions';
import { useState } from 'react';
import { Alert, Button, Group, Loader, Modal, Stack, Table, Text } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { GPU_VENDORS, formatMemory } from '@orrery/contract';
import { useDeletePreset, useNodePools, usePresets, type Preset } from '../../api/admin';
import { DialogActions } from '../../ui/DialogActions';
import { messageOf } from '../../ui/errors';
import { withOutcome } from '../../ui/notify';
import { PresetDialog } from './PresetDialog';
import { poolCapacities } from './presetForm';
import { ADMIN_UI } from './texts';

const P = ADMIN_UI.presets;

const gpuOf = (p: Preset) =>
  GPU_VENDORS.flatMap((v) => {
    const g = p[`${v}Gpu`];
    return g ? [`${g.count} × ${g.model ?? v}`] : [];
  }).join(', ') || '—';

/** The cluster's resource presets: create, edit, delete. */
export function ResourcesTab({ cluster }: { cluster: string }) {
  const presets = usePresets(cluster);
  const pools = useNodePools(cluster);
  const remove = useDeletePreset(cluster);
  const [editing, setEditing] = useState<Preset | 'new' | null>(null);
  const [deleting, setDeleting] = useState<Preset | null>(null);
  if (presets.isPending || pools.isPending)
    return <Loader aria-label={ADMIN_UI.clusterTabs.resources} />;
  if (presets.isError)
    return <Alert color="red">{messageOf(presets.error, ADMIN_UI.loadFailed)}</Alert>;
  const confirmDelete = async () => {
    const name = deleting?.name;
    if (
      name &&
      (await withOutcome(() => remove.mutateAsync(name), P.deleted(name), ADMIN_UI.loadFailed))
    )
      setDeleting(null);
  };
  return (
    <Stack>
      <Group justify="flex-end">
        <Button leftSection={<IconPlus size={16} />} onClick={() => setEditing('new')}>
          {P.create}
        </Button>
      </Group>
      <Table striped verticalSpacing="sm">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{P.name}</Table.Th>
            <Table.Th>{P.cpu}</Table.Th>
            <Table.Th>{P.memory}</Table.Th>
            <Table.Th>GPU</Table.Th>
            <Table.Th>{P.credits}</Table.Th>
            <Table.Th>{P.preemptible}</Table.Th>
            <Table.Th>{P.roundRobin}</Table.Th>
            <Table.Th>{P.pools}</Table.Th>
            <Table.Th aria-label="Actions" />
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {(presets.data ?? []).map((p) => (
            <Table.Tr key={p.name}>
              <Table.Td>{p.name}</Table.Td>
              <Table.Td>{p.cpu}</Table.Td>
              <Table.Td>{formatMemory(p.memory)}</Table.Td>
              <Table.Td>{gpuOf(p)}</Table.Td>
              <Table.Td>{p.creditsPerHour}</Table.Td>
              <Table.Td>{p.isPreemptible ? ADMIN_UI.yes : ADMIN_UI.no}</Table.Td>
              <Table.Td>{p.schedulerEnabled ? ADMIN_UI.yes : ADMIN_UI.no}</Table.Td>
              <Table.Td>{p.resourcePoolNames.join(', ')}</Table.Td>
              <Table.Td>
                <Group gap={4} justify="flex-end" wrap="nowrap">
                  <EditAction label={P.edit(p.name)} onClick={() => setEditing(p)} />
                  <DeleteAction label={P.delete(p.name)} onClick={() => setDeleting(p)} />
                </Group>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      <PresetDialog
        cluster={cluster}
        pools={poolCapacities(pools.data ?? [])}
        preset={editing}
        onClose={() => setEditing(null)}
      />
      <Modal
        opened={!!deleting}
        onClose={() => setDeleting(null)}
        title={deleting ? P.delete(deleting.name) : ''}
        centered
      >
        <Stack>
          <Text>{deleting ? P.confirmDelete(deleting.name) : null}</Text>
          <DialogActions
            cancelLabel={ADMIN_UI.cancel}
            onCancel={() => setDeleting(null)}
            confirmLabel={ADMIN_UI.delete}
            color="red"
            onClick={confirmDelete}
            loading={remove.isPending}
          />
        </Stack>
      </Modal>
    </Stack>
  );
}
