import { DeleteAction, EditAction } from '../../ui/RowActions';
import { useState } from 'react';
import { Alert, Button, Group, Loader, Modal, Stack, Text } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { GPU_VENDORS, formatMemory } from '@orrery/contract';
import { useDeletePreset, useNodePools, usePresets, type Preset } from '../../api/admin';
import { DataTable } from '../../ui/DataTable';
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
      <DataTable
        table={{ striped: true, verticalSpacing: 'sm' }}
        rows={presets.data}
        rowKey={(p) => p.name}
        columns={[
          { header: P.name, cell: (p) => p.name },
          { header: P.cpu, cell: (p) => p.cpu },
          { header: P.memory, cell: (p) => formatMemory(p.memory) },
          { header: 'GPU', cell: gpuOf },
          { header: P.credits, cell: (p) => p.creditsPerHour },
          { header: P.preemptible, cell: (p) => (p.isPreemptible ? ADMIN_UI.yes : ADMIN_UI.no) },
          { header: P.roundRobin, cell: (p) => (p.schedulerEnabled ? ADMIN_UI.yes : ADMIN_UI.no) },
          { header: P.pools, cell: (p) => p.resourcePoolNames.join(', ') },
          {
            label: 'Actions',
            cell: (p) => (
              <Group gap={4} justify="flex-end" wrap="nowrap">
                <EditAction label={P.edit(p.name)} onClick={() => setEditing(p)} />
                <DeleteAction label={P.delete(p.name)} onClick={() => setDeleting(p)} />
              </Group>
            ),
          },
        ]}
      />
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
